import CSQLCipher

extension Database {
    /// Prepares the statements of `sqlLiteral` one after the other, binds each
    /// its share of the arguments, and calls `body` with it, before preparing
    /// the next one: a statement may use a table that the previous one created.
    ///
    /// Arguments are shared as in ``execute(sql:arguments:)``: positional
    /// values are consumed in order, and unused ones are an error.
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid or the arguments do
    ///   not fit, or the error of `body`.
    func forEachStatement(in sqlLiteral: SQL, _ body: (Statement) throws -> Void) throws {
        let handle = try connection()
        let arguments = sqlLiteral.arguments
        var consumer = ArgumentConsumer(arguments, publicStatementArguments: configuration.publicStatementArguments)
        try sqlLiteral.sql.withCString { start in
            var cursor = start
            while cursor.pointee != 0 {
                var sqliteStatement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(handle, cursor, -1, 0, &sqliteStatement, &tail)
                guard code == SQLITE_OK else {
                    throw DatabaseError.fromConnection(handle, code: code, sql: String(cString: cursor))
                }
                guard let tail else { break }
                defer { cursor = tail }
                // White space and comments prepare no statement.
                guard let sqliteStatement else { continue }
                let statementSQL = String(cString: sqlite3_sql(sqliteStatement))
                let statement = Statement(database: self, sqliteStatement: sqliteStatement, sql: statementSQL)
                let values = try consumer.values(
                    forParameters: ArgumentConsumer.parameterNames(of: sqliteStatement), sql: statementSQL)
                try statement.bind(values, arguments: arguments)
                try body(statement)
            }
        }
        try consumer.checkAllConsumed(sql: sqlLiteral.sql)
    }
}
