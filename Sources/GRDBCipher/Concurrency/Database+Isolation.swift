extension Database {
    /// Runs `block` in a deferred transaction with writes forbidden
    /// (`PRAGMA query_only`): a read sees one stable state and cannot write.
    func readOnlyTransaction<T>(_ block: (Database) throws -> T) throws -> T {
        // A connection opened read-only needs no pragma to stay read-only.
        if !configuration.readonly {
            try cachedStatement(sql: "PRAGMA query_only = 1").execute()
        }
        defer {
            if !configuration.readonly { try? cachedStatement(sql: "PRAGMA query_only = 0").execute() }
        }
        try beginTransaction(.deferred)
        let value: T
        do {
            value = try block(self)
        } catch {
            try? rollbackIfNeeded()
            throw error
        }
        // Nothing was written: ending with a rollback is as good as a commit
        // and cannot fail on a constraint.
        try rollbackIfNeeded()
        return value
    }

    /// Calls `value` exactly once: with the connection inside a read-only
    /// transaction, or with the error that prevented it. An error when the
    /// transaction ends, after `value` ran, is not reported a second time.
    func asyncReadOnlyTransaction(_ value: (Result<Database, any Error>) -> Void) {
        var called = false
        do {
            try readOnlyTransaction { db in
                called = true
                value(.success(db))
            }
        } catch {
            if !called { value(.failure(error)) }
        }
    }

    /// Runs `block` in a transaction that commits if it returns, and rolls
    /// back if it throws.
    func writeTransaction<T>(_ kind: TransactionKind? = nil, _ block: (Database) throws -> T) throws -> T {
        var value: T?
        try inTransaction(kind) {
            value = try block(self)
            return .commit
        }
        return value!
    }
}

extension Database {
    /// Ends a top-level access: a transaction left open is rolled back, and
    /// on a writable connection the process traps unless
    /// ``Configuration/allowsUnsafeTransactions`` is set.
    func endAccess() {
        guard isInsideTransaction else {
            retryRemovingOldKeyFrames()
            return
        }
        if configuration.readonly {
            try? rollback()
            return
        }
        if configuration.allowsUnsafeTransactions { return }
        try? rollback()
        preconditionFailure(
            "A transaction was left open at the end of a database access: commit or roll it back "
                + "before the access ends, or set Configuration.allowsUnsafeTransactions.")
    }
}
