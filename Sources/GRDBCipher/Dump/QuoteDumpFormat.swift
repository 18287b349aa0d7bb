/// A format that prints one line per row, with each value as an SQL literal,
/// like the `quote` mode of the `sqlite3` command-line tool.
///
/// Values are separated by `,` by default, and printed by SQLite's `quote()`
/// function: `NULL`, `1`, `1.5`, `'it''s'`, `X'0A1B'`. The header, when
/// asked for, quotes the column names as strings.
///
/// ```swift
/// // 'Arthur',500
/// // 'Barbara',NULL
/// try db.dumpSQL("SELECT name, score FROM player", format: .quote())
/// ```
public struct QuoteDumpFormat: Sendable {
    /// Whether the column names are printed before the first row.
    public var header: Bool

    /// The text between two values of a row.
    public var separator: String

    private var hasPrintedRow = false

    /// Creates the format.
    ///
    /// - parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values of a row.
    public init(header: Bool = false, separator: String = ",") {
        self.header = header
        self.separator = separator
    }
}

extension QuoteDumpFormat: DumpFormat {
    /// Prints the current row on one line.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if !hasPrintedRow {
            hasPrintedRow = true
            if header {
                stream.writeLine(statement.columnNames.map { db.sqlQuote($0) }.joined(separator: separator))
            }
        }
        var isFirst = true
        statement.forEachDumpedColumn { index, _ in
            if !isFirst { stream.write(separator) }
            isFirst = false
            stream.write(statement.dumpedSQLLiteral(at: index))
        }
        stream.write("\n")
    }

    /// Gets ready for the next statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        hasPrintedRow = false
    }
}

extension DumpFormat where Self == QuoteDumpFormat {
    /// A format that prints one line per row, with each value as an SQL
    /// literal: see ``QuoteDumpFormat``.
    ///
    /// ```swift
    /// // 'Arthur',500
    /// // 'Barbara',NULL
    /// try db.dumpSQL("SELECT name, score FROM player", format: .quote())
    /// ```
    ///
    /// - parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values of a row.
    public static func quote(header: Bool = false, separator: String = ",") -> Self {
        QuoteDumpFormat(header: header, separator: separator)
    }
}
