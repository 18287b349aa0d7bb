import CSQLCipher

extension Database {
    /// The kind of a transaction: when it takes its locks.
    public enum TransactionKind: String, Sendable {
        /// Locks are taken by the first read or write.
        case deferred = "DEFERRED"
        /// The write lock is taken at once.
        case immediate = "IMMEDIATE"
        /// The exclusive lock is taken at once.
        case exclusive = "EXCLUSIVE"
    }

    /// How a transaction or savepoint block ends.
    public enum TransactionCompletion: Sendable {
        /// Keep the changes.
        case commit
        /// Undo the changes.
        case rollback
    }
}

extension Database {
    /// Runs `operations` inside a transaction.
    ///
    /// The transaction commits if `operations` returns `.commit`, and rolls back
    /// if it returns `.rollback` or throws (the error is then rethrown).
    ///
    /// ```swift
    /// try db.inTransaction {
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    ///
    /// If SQLite rolls the transaction back on its own while `operations`
    /// runs (a `ROLLBACK` statement, `RAISE(ROLLBACK)`, a full disk), the
    /// statements that follow, and the commit, throw `SQLITE_ABORT`.
    ///
    /// - parameter kind: The transaction kind. If nil, `DEFERRED` when the
    ///   current access is read-only, and `IMMEDIATE` otherwise.
    /// - parameter operations: The statements to run in the transaction: return `.commit` to commit, `.rollback` to roll back.
    /// - throws: The first error: the one of `operations`, or a
    ///   ``DatabaseError`` if the transaction cannot begin or commit. A
    ///   transaction that fails to commit is rolled back.
    public func inTransaction(
        _ kind: TransactionKind? = nil,
        _ operations: () throws -> TransactionCompletion) throws
    {
        try beginTransaction(kind)
        try runTransactionBlock(operations, commit: { try commit() }, rollback: { try rollback() })
    }

    /// Runs `operations` inside a savepoint, which can be nested in a
    /// transaction or in another savepoint. Outside of a transaction it opens
    /// a transaction instead (`IMMEDIATE` unless the access is read-only).
    ///
    /// The savepoint is released if `operations` returns `.commit` (its changes
    /// are committed with the enclosing transaction), and rolled back if it
    /// returns `.rollback` or throws.
    ///
    /// - throws: The first error: the one of `operations`, or a ``DatabaseError``.
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        guard isInsideTransaction else {
            try inTransaction(nil, operations)
            return
        }
        try execute(sql: "SAVEPOINT grdb")
        try runTransactionBlock(
            operations,
            commit: { try execute(sql: "RELEASE SAVEPOINT grdb") },
            rollback: {
                // Rolling back to a savepoint keeps it on SQLite's stack.
                try execute(sql: "ROLLBACK TRANSACTION TO SAVEPOINT grdb")
                try execute(sql: "RELEASE SAVEPOINT grdb")
            })
    }

    /// Runs the body of a transaction or savepoint that has begun, then
    /// commits or rolls back; throws the first error.
    func runTransactionBlock(
        _ operations: () throws -> TransactionCompletion,
        commit: () throws -> Void,
        rollback: () throws -> Void) throws
    {
        let wasInsideTransactionBlock = isInsideTransactionBlock
        isInsideTransactionBlock = true
        defer { isInsideTransactionBlock = wasInsideTransactionBlock }
        var firstError: (any Error)?
        var needsRollback = true
        do {
            if try operations() == .commit {
                // SQLite rolled back already: SQLITE_ABORT, not "cannot
                // commit - no transaction is active".
                try checkForAbortedTransaction()
                isInsideTransactionBlock = wasInsideTransactionBlock
                try commit()
                needsRollback = false
            }
        } catch {
            firstError = error
        }
        if needsRollback {
            do {
                try rollback()
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// Begins a transaction.
    ///
    /// - parameter kind: The transaction kind. If nil, `DEFERRED` when the
    ///   current access is read-only, and `IMMEDIATE` otherwise, so that a
    ///   write never has to upgrade its lock while another process writes.
    /// - throws: A ``DatabaseError``, for example if a transaction is already open.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        let kind = kind ?? (readOnlyDepth > 0 || configuration.readonly ? .deferred : .immediate)
        try cachedStatement(sql: "BEGIN \(kind.rawValue) TRANSACTION").execute()
    }

    /// Commits the current transaction.
    ///
    /// - throws: A ``DatabaseError``, for example if a foreign key check fails.
    public func commit() throws {
        try cachedStatement(sql: "COMMIT TRANSACTION").execute()
    }

    /// Rolls back the current transaction. Does nothing when no transaction
    /// is open: after some errors (`SQLITE_FULL`, `SQLITE_IOERR`,
    /// `SQLITE_BUSY`, `SQLITE_NOMEM`) SQLite may have rolled back already.
    ///
    /// - throws: A ``DatabaseError`` if the rollback fails.
    public func rollback() throws {
        if isInsideTransaction {
            // An interrupt from another thread must not leave the
            // transaction open: the rollback is retried once.
            try ignoringInterruption {
                try cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
            }
        }
    }

    /// Runs `value` with writes forbidden (`PRAGMA query_only`): a write
    /// inside throws `SQLITE_READONLY`. Calls can be nested.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.readOnly {
    ///         let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
    ///     }
    /// }
    /// ```
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func readOnly<T>(_ value: () throws -> T) throws -> T {
        try beginReadOnly()
        let result: T
        do {
            result = try value()
        } catch {
            try? endReadOnly()
            throw error
        }
        try endReadOnly()
        return result
    }

    /// Forbids writes until the matching ``endReadOnly()``; calls nest.
    func beginReadOnly() throws {
        if readOnlyDepth == 0 && !configuration.readonly {
            try cachedStatement(sql: "PRAGMA query_only = 1").execute()
        }
        readOnlyDepth += 1
    }

    /// Ends a ``beginReadOnly()``: writes are allowed again after the outermost one.
    ///
    /// - throws: A ``DatabaseError`` if writes could not be allowed again; an
    ///   interrupt is not one: the statement is retried once.
    func endReadOnly() throws {
        readOnlyDepth -= 1
        if readOnlyDepth == 0 && !configuration.readonly {
            try ignoringInterruption {
                try cachedStatement(sql: "PRAGMA query_only = 0").execute()
            }
        }
    }

    /// Runs `value`, and once more if an interrupt (``interrupt()``, from
    /// another thread) made it fail. For the statements that restore the
    /// connection (ROLLBACK, `PRAGMA query_only = 0`): an interrupt is
    /// concurrent, so it may as well have happened before or after them.
    func ignoringInterruption<T>(_ value: () throws -> T) throws -> T {
        do {
            return try value()
        } catch let error as DatabaseError where error.isInterruptionError {
            // SQLite stays interrupted while a statement of the connection
            // runs: reset the running ones before retrying.
            resetRunningStatements()
            return try value()
        } catch is CancellationError {
            resetRunningStatements()
            return try value()
        }
    }

    /// Resets every statement of the connection that is between its first
    /// step and its end.
    private func resetRunningStatements() {
        guard let handle = try? connection() else { return }
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }
}
