/// A type that prints database rows, for the dump methods such as
/// ``Database/dumpSQL(_:format:to:)`` and ``DatabaseReader/dumpContent(format:to:)``.
///
/// The built-in formats follow the output modes of the `sqlite3` command-line
/// tool:
///
/// - ``debug(header:separator:nullValue:)``: one line per row, for reading
///   (the default).
/// - ``json(encoder:)``: a JSON array of objects per statement.
/// - ``line(nullValue:)``: one line per value, `column = value`.
/// - ``list(header:separator:nullValue:)``: one line per row, raw values.
/// - ``quote(header:separator:)``: one line per row, SQL literals.
///
/// ```swift
/// try dbQueue.dumpSQL("SELECT * FROM player ORDER BY id", format: .quote(header: true))
/// // 'id','name','score'
/// // 1,'Arthur',500
/// ```
///
/// A format is a value: each statement is printed by a fresh copy of the
/// format given to the dump method, so a format can keep state from one row
/// to the next (has it printed a header yet, for example).
///
/// Columns whose name starts with `grdb_` are GRDB's own: the built-in
/// formats do not print their values.
public protocol DumpFormat {
    /// Prints the current row of `statement`.
    ///
    /// - parameters:
    ///   - db: The connection that runs the statement.
    ///   - statement: The statement, positioned on the row to print.
    ///   - stream: Where to print.
    /// - throws: Any error that prevents printing the row.
    mutating func writeRow(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream) throws

    /// Called once all rows of `statement` are printed, even when it had none.
    ///
    /// - parameters:
    ///   - db: The connection that ran the statement.
    ///   - statement: The statement, done.
    ///   - stream: Where to print.
    mutating func finalize(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
}
