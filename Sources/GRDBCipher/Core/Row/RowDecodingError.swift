/// The error thrown when a row cannot be decoded: a missing column, or a
/// value of the wrong type.
///
/// Its description reads as GRDB's: what failed, then the column, the row,
/// the SQL and the arguments.
///
/// ```
/// could not decode Int from database value "Arthur" - column: "score", column index: 1,
/// row: [name:"Arthur" score:"Arthur"], sql: `SELECT * FROM player`, arguments: []
/// ```
///
/// Two things differ from GRDB, because the data of an encrypted database
/// should not reach logs in plaintext: SQL that sets a key is redacted, and
/// values (the failing one, the row's, the arguments) appear only when
/// ``Configuration/publicStatementArguments`` is true, as arguments do in
/// ``DatabaseError``. Otherwise a value other than NULL reads as its storage
/// class, `<text>` for instance, and non-empty arguments are left out.
public struct RowDecodingError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Kind: Sendable {
        /// No column has the requested name.
        case columnNotFound
        /// The value cannot be decoded into the requested type.
        case valueMismatch
        /// No scope has the requested name (see ``Row/scopes``).
        case scopeNotFound
        /// No rows were prefetched under the requested association key
        /// (see ``Row/prefetchedRows``).
        case prefetchKeyNotFound
    }

    /// What went wrong.
    public let kind: Kind
    /// The column, by name, if known.
    public let column: String?
    /// The SQL of the statement that produced the row, if any, with any key
    /// redacted.
    public let sql: String?
    /// A full explanation, in GRDB's format.
    public let description: String

    /// A value of `row` at `index` that `type` does not decode.
    static func valueMismatch(_ type: Any.Type, dbValue: DatabaseValue, row: Row, index: Int) -> RowDecodingError {
        let column = row.columnNames[index]
        let value = showsValues(of: row) ? dbValue.description : dbValue.storageDescription
        // An optional is named as such (`Optional<Int>`), as GRDB names it.
        return RowDecodingError(
            kind: .valueMismatch, column: column, row: row,
            what: "could not decode \(type) from database value \(value)",
            columnChunks: ["column: \(String(reflecting: column))", "column index: \(index)"])
    }

    /// A column that `row` does not have.
    static func columnNotFound(_ column: String, row: Row) -> RowDecodingError {
        RowDecodingError(
            kind: .columnNotFound, column: column, row: row,
            what: "column not found: \(String(reflecting: column))", columnChunks: [])
    }

    /// A scope that `row` does not have, at any depth.
    static func scopeNotFound(_ scope: String, row: Row) -> RowDecodingError {
        let available = row.scopesTree.names.sorted()
        let what = available.isEmpty
            ? "scope not found: \(String(reflecting: scope))"
            : "scope not found: \(String(reflecting: scope)) - available scopes: \(available)"
        return RowDecodingError(
            kind: .scopeNotFound, column: nil, row: row, what: what, columnChunks: [])
    }

    /// An association key under which `row` has no prefetched rows.
    static func prefetchKeyNotFound(_ key: String, row: Row) -> RowDecodingError {
        let available = row.prefetchedRows.keys.sorted()
        let what = available.isEmpty
            ? "key for prefetched rows not found: \(String(reflecting: key))"
            : "key for prefetched rows not found: \(String(reflecting: key)) - available keys: \(available)"
        return RowDecodingError(
            kind: .prefetchKeyNotFound, column: nil, row: row, what: what, columnChunks: [])
    }

    /// A scope of `row` with only NULL values, decoded into a record.
    static func nullScope(_ scope: String, row: Row) -> RowDecodingError {
        RowDecodingError(
            kind: .valueMismatch, column: nil, row: row,
            what: "scope \(String(reflecting: scope)) only contains null values", columnChunks: [])
    }

    private init(kind: Kind, column: String?, row: Row, what: String, columnChunks: [String]) {
        self.kind = kind
        self.column = column
        var chunks = columnChunks
        let showsValues = Self.showsValues(of: row)
        // A statement row changes as its statement steps: describe its values now.
        if showsValues {
            chunks.append("row: \(row.copy())")
        } else {
            let values = zip(row.columnNames, row.databaseValues).map { "\($0):\($1.storageDescription)" }
            chunks.append("row: [\(values.joined(separator: " "))]")
        }
        if let statement = row.sourceStatement {
            let sql = SecretRedaction.redactedSQL(statement.sql)
            self.sql = sql
            chunks.append("sql: `\(sql)`")
            let arguments = statement.describedArguments
            if arguments.isEmpty || showsValues {
                chunks.append("arguments: \(arguments)")
            }
        } else {
            self.sql = nil
        }
        self.description = "\(what) - \(chunks.joined(separator: ", "))"
    }

    /// Whether the error may show values: only when the connection made
    /// statement arguments public. A copied row knows no connection.
    private static func showsValues(of row: Row) -> Bool {
        row.sourceStatement?.database.configuration.publicStatementArguments ?? false
    }
}
