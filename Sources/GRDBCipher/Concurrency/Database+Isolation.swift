extension Database {
    /// Runs `block` in a deferred transaction with writes forbidden
    /// (`PRAGMA query_only`): a read sees one stable state and cannot write.
    ///
    /// With `acquiringSnapshot`, the transaction reads the schema version
    /// before `block` runs: a WAL reader then sees the state as of the start
    /// of the access, not as of its first statement, and its schema cache is
    /// checked against that version.
    func readOnlyTransaction<T>(acquiringSnapshot: Bool = false, _ block: (Database) throws -> T) throws -> T {
        // As GRDB: writes are forbidden first, then the read runs in a
        // transaction block that commits (or throws SQLITE_ABORT if the
        // closure ended the transaction).
        try readOnly {
            if acquiringSnapshot {
                try beginSnapshotTransactionCheckingSchema()
            } else {
                try beginTransaction(.deferred)
            }
            var value: T?
            try runTransactionBlock(
                { value = try block(self); return .commit },
                commit: { try commit() },
                rollback: { try rollback() })
            return value!
        }
    }

    /// Begins a deferred transaction and reads from the database, which fixes
    /// the state the transaction sees (in WAL mode) from now on.
    func beginSnapshotTransaction(reading sql: String = "SELECT rootpage FROM sqlite_master LIMIT 1") throws {
        try beginTransaction(.deferred)
        do {
            try cachedStatement(sql: sql).execute()
        } catch {
            try? rollback()
            throw error
        }
    }

    /// Calls `value` exactly once: with the connection inside a read-only
    /// transaction, or with the error that prevented it. An error when the
    /// transaction ends, after `value` ran, is not reported a second time.
    func asyncReadOnlyTransaction(acquiringSnapshot: Bool = false, _ value: (Result<Database, any Error>) -> Void) {
        var called = false
        do {
            try readOnlyTransaction(acquiringSnapshot: acquiringSnapshot) { db in
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
    /// Ends a top-level access. A transaction left open is a programmer
    /// error, as in GRDB: it is rolled back and the process traps, unless
    /// ``Configuration/allowsUnsafeTransactions`` is set.
    func endAccess() {
        // The next access may come after another connection changed the schema.
        schemaCache.isValidForTransaction = false
        guard isInsideTransaction else {
            changeGeneration.accessDidEnd()
            retryRemovingOldKeyFrames()
            return
        }
        if configuration.allowsUnsafeTransactions { return }
        try? rollback()
        preconditionFailure(
            "A transaction was left open at the end of a database access: commit or roll it back "
                + "before the access ends, or set Configuration.allowsUnsafeTransactions.")
    }
}
