import CSQLCipher

/// A cursor over the statements of an SQL string, each prepared when the
/// cursor reaches it, with its share of the arguments bound: positional
/// values in order, named values by name. Made by
/// ``Database/allStatements(sql:arguments:)``.
///
/// ```swift
/// let statements = try db.allStatements(sql: """
///     INSERT INTO player (name) VALUES (?);
///     SELECT * FROM player WHERE name = ?;
///     """, arguments: ["Arthur", "Arthur"])
/// while let statement = try statements.next() {
///     try statement.execute()
/// }
/// ```
///
/// Arguments left unused once the last statement has been returned are an
/// error, thrown by the call to `next()` that would return nil: as in GRDB,
/// the statements before it have run by then.
public final class SQLStatementCursor: Cursor {
    private let database: Database
    private let handle: SQLiteConnection
    /// The SQL as UTF-8 with a terminating NUL, and where the next statement starts.
    private let utf8: ContiguousArray<CChar>
    private var offset = 0
    /// The arguments shared by the statements, and what remains of them;
    /// nil when none were given: each statement is then left unbound, for
    /// arguments given when it runs (as in GRDB).
    private let arguments: StatementArguments?
    private var consumer: ArgumentConsumer?

    init(database: Database, sql: String, arguments: StatementArguments?) throws {
        self.database = database
        self.handle = try database.connection(sql: sql)
        self.utf8 = sql.utf8CString
        self.arguments = arguments
        self.consumer = arguments.map {
            ArgumentConsumer($0, publicStatementArguments: database.configuration.publicStatementArguments)
        }
    }

    /// The next statement, prepared, with its arguments bound; nil after the last.
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid or the arguments
    ///   do not fit.
    public func next() throws -> Statement? {
        while true {
            let step = try utf8.withUnsafeBufferPointer { buffer -> (statement: OpaquePointer?, next: Int)? in
                let start = buffer.baseAddress! + offset
                if start.pointee == 0 { return nil }
                var sqliteStatement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                database.statementAuthorizer.willCompile()
                let code = sqlite3_prepare_v3(handle, start, -1, 0, &sqliteStatement, &tail)
                guard code == SQLITE_OK else {
                    if database.failedFromCancellation(code) { throw CancellationError() }
                    // As in GRDB: the SQL from this statement to the end, as
                    // written (the description trims it).
                    throw DatabaseError.fromConnection(handle, code: code, sql: String(cString: start))
                }
                guard let tail else { return nil }
                return (sqliteStatement, tail - buffer.baseAddress!)
            }
            guard let step else {
                try consumer?.checkAllConsumed(sql: nil)
                return nil
            }
            offset = step.next
            // White space and comments prepare no statement.
            guard let sqliteStatement = step.statement else { continue }
            let statement = Statement(database: database, sqliteStatement: sqliteStatement)
            if let arguments, var consumer {
                let values = try consumer.values(
                    forParameters: ArgumentConsumer.parameterNames(of: sqliteStatement), sql: statement.sql)
                self.consumer = consumer
                try statement.bind(values, arguments: arguments)
            }
            return statement
        }
    }
}

extension Database {
    /// A cursor over the statements of `sql`, which may hold several,
    /// separated by semicolons; see ``SQLStatementCursor``.
    ///
    /// - throws: A ``DatabaseError`` if the connection is closed.
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        try SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }
}
