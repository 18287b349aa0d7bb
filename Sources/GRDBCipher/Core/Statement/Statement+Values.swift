import CSQLCipher

extension Statement {
    /// Binds `values` to the statement's parameters, in order, and runs the
    /// statement until it is done.
    ///
    /// This is ``execute(arguments:)`` for loops that run one statement many
    /// times. An array literal of arguments holds its values as
    /// `any DatabaseValueConvertible`, which the caller builds and the
    /// statement converts and releases on every run. Here each value keeps
    /// its own type and binds itself with
    /// `DatabaseValueConvertible/bind(to:at:)`: a number or a `Bool` with
    /// one `sqlite3_bind_*` call, other types through their ``DatabaseValue``.
    ///
    /// ```swift
    /// let statement = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
    /// for player in players {
    ///     try statement.execute(values: player.name, player.score)
    /// }
    /// ```
    ///
    /// The first value binds parameter 1, the next one parameter 2, and so on,
    /// named and numbered (`?NNN`) parameters included: there must be one
    /// value for each parameter index. The statement does not keep the
    /// values: after this method, ``arguments`` is empty, while SQLite keeps
    /// the bindings for a later ``execute(arguments:)`` without arguments.
    /// Like their database value, an unsigned integer above `Int64.max`
    /// traps.
    ///
    /// - throws: A ``DatabaseError`` if the number of values is not the
    ///   number of parameters (nothing runs then), the connection is closed,
    ///   or SQLite fails.
    @inlinable
    public func execute<each Value: DatabaseValueConvertible>(values: repeat each Value) throws {
        var count = 0
        for _ in repeat each values { count += 1 }
        guard count == parameterCount else {
            throw wrongValueCountError(values: Self.databaseValues(repeat each values))
        }
        let database = try preparedConnectionForValues()
        // Result codes are only or-ed here, which costs less than keeping
        // the first failing one: a failure binds again, one value at a time,
        // to find it (and its message).
        var index: CInt = 0
        var failures = SQLITE_OK
        for value in repeat each values {
            index &+= 1
            failures |= value.bind(to: sqliteStatement, at: index)
        }
        var code = failures == SQLITE_OK ? SQLITE_OK : bindOneByOne(repeat each values)
        if code == SQLITE_OK {
            code = stepToCompletion(on: database)
        }
        if code != SQLITE_DONE {
            throw valuesError(code, values: Self.databaseValues(repeat each values))
        }
    }

    /// Binds `values` in order and returns the code of the first bind that
    /// fails, or `SQLITE_OK`.
    @inlinable
    func bindOneByOne<each Value: DatabaseValueConvertible>(_ values: repeat each Value) -> CInt {
        var index: CInt = 0
        for value in repeat each values {
            index &+= 1
            let code = value.bind(to: sqliteStatement, at: index)
            if code != SQLITE_OK { return code }
        }
        return SQLITE_OK
    }

    /// The database values of `values`: for error messages only.
    @inlinable
    static func databaseValues<each Value: DatabaseValueConvertible>(_ values: repeat each Value) -> [DatabaseValue] {
        var result: [DatabaseValue] = []
        for value in repeat each values { result.append(value.databaseValue) }
        return result
    }

    /// Makes the statement ready for new values: the connection must be
    /// open, a statement that still runs is reset, and the previous
    /// arguments are forgotten.
    func prepareForValues() throws {
        try prepareForValues(on: database)
    }

    /// ``prepareForValues()``, returning the connection for the run that
    /// follows: one load of the unowned reference for both (each load is a
    /// `swift_unownedRetainStrong` and a release, callgrind).
    @usableFromInline
    func preparedConnectionForValues() throws -> Database {
        let database = self.database
        try prepareForValues(on: database)
        return database
    }

    @inline(__always)
    private func prepareForValues(on database: Database) throws {
        try database.checkCanExecute(self)
        if sqlite3_stmt_busy(sqliteStatement) != 0 { reset() }
        if !boundArguments.isEmpty { boundArguments = StatementArguments() }
        if boundKeyValue != nil { boundKeyValue = nil }
        argumentsAreBound = true
    }

    /// The error for a number of values that is not the number of parameters.
    @usableFromInline
    func wrongValueCountError(values: [DatabaseValue]) -> DatabaseError {
        DatabaseError.misuse(
            "wrong number of statement arguments: \(values.count)",
            sql: sql, arguments: StatementArguments(values),
            publicStatementArguments: database.configuration.publicStatementArguments)
    }

    /// The error for a failed bind or step, with the values that were bound.
    @usableFromInline
    func valuesError(_ code: CInt, values: [DatabaseValue]) -> any Error {
        if let error = database.takeCommitCancellationError() { return error }
        if database.failedFromCancellation(code) { return CancellationError() }
        return DatabaseError.fromConnection(
            database.sqliteConnection, code: code, sql: sql, arguments: StatementArguments(values),
            publicStatementArguments: database.configuration.publicStatementArguments)
    }
}
