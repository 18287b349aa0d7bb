// The connection's methods that take an SQL literal (``SQL``): the
// literal builds its SQL and arguments, then the SQL methods run them.

extension Database {
    /// Runs SQL built with interpolation; interpolated values are bound as
    /// arguments, never spliced into the SQL text.
    ///
    /// ```swift
    /// try db.execute(literal: "UPDATE player SET score = \(score) WHERE id = \(id)")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid or SQLite fails.
    public func execute(literal sqlLiteral: SQL) throws {
        let (sql, arguments) = try sqlLiteral.build(self)
        try execute(sql: sql, arguments: arguments)
    }

    /// Returns a cached statement for SQL built with interpolation, with its
    /// arguments bound; see ``cachedStatement(sql:)``.
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid, holds more than one
    ///   statement, or its arguments do not fit.
    public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try cachedStatement(sql: sql)
        // A literal without arguments leaves the statement unbound, as in
        // GRDB: `?` and `:name` parameters take the arguments given later.
        if !arguments.isEmpty { try statement.setArguments(arguments) }
        return statement
    }

    /// Prepares one statement from SQL built with interpolation, with its
    /// arguments bound.
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid or holds more than
    ///   one statement.
    public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try makeStatement(sql: sql)
        // A literal without arguments leaves the statement unbound, as in
        // GRDB: `?` and `:name` parameters take the arguments given later.
        if !arguments.isEmpty { try statement.setArguments(arguments) }
        return statement
    }

    /// A cursor over the statements of an SQL literal; see ``SQLStatementCursor``.
    ///
    /// - throws: A ``DatabaseError`` if the connection is closed, or if a
    ///   query-interface value of the literal cannot be turned into SQL.
    public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
        let (sql, arguments) = try sqlLiteral.build(self)
        // Without arguments, the statements are left unbound, as in GRDB.
        return try allStatements(sql: sql, arguments: arguments.isEmpty ? nil : arguments)
    }
}
