import CSQLCipher

extension Statement {
    /// The region of the database the statement reads: the tables and
    /// columns SQLite reports while compiling it (a `COUNT(*)` reads its
    /// whole table). Empty for statements that read nothing.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT name FROM player")
    /// print(statement.databaseRegion) // "player(name)"
    /// ```
    public var databaseRegion: DatabaseRegion {
        let region = accesses.selectedRegion
        guard let regionRefinement else { return region }
        return (try? regionRefinement(database, region)) ?? region
    }

    /// What the statement reads and may change. A statement compiled while
    /// nothing observed is compiled once more, with the authorizer
    /// recording, the first time this is asked.
    var accesses: StatementAccesses {
        if let recordedAccesses { return recordedAccesses }
        let accesses = database.compileAccesses(of: self)
        recordedAccesses = accesses
        return accesses
    }
}

extension Database {
    /// Compiles the statement's SQL again with the authorizer recording,
    /// and returns what it reads and may change. Transaction statements
    /// and pragmas are not compiled again: they access no table, and
    /// SQLCipher runs some pragmas (`key`, `rekey`) while compiling them.
    func compileAccesses(of statement: Statement) -> StatementAccesses {
        guard statement.facts.transactionEffect == nil, !statement.facts.isPragma,
              let handle = sqliteConnection, let sql = sqlite3_sql(statement.sqliteStatement)
        else { return StatementAccesses() }
        let wasRecording = statementAuthorizer.recordsAccesses
        statementAuthorizer.recordsAccesses = true
        statementAuthorizer.willCompile()
        var compiled: OpaquePointer?
        sqlite3_prepare_v3(handle, sql, -1, 0, &compiled, nil)
        sqlite3_finalize(compiled)
        let accesses = statementAuthorizer.takeAccesses()
        _ = statementAuthorizer.takeEffects()
        _ = statementAuthorizer.takeFacts()
        statementAuthorizer.recordsAccesses = wasRecording
        return accesses
    }
}
