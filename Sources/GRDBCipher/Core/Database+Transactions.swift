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
    /// - parameter kind: The transaction kind; default `.deferred`.
    /// - throws: The error of `operations`, or a ``DatabaseError`` if the
    ///   transaction cannot begin or commit. A transaction that fails to commit
    ///   is rolled back.
    public func inTransaction(
        _ kind: TransactionKind? = nil,
        _ operations: () throws -> TransactionCompletion) throws
    {
        try beginTransaction(kind)
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            try? rollbackIfNeeded()
            throw error
        }
        switch completion {
        case .commit:
            do {
                try commit()
            } catch {
                try? rollbackIfNeeded()
                throw error
            }
        case .rollback:
            try rollbackIfNeeded()
        }
    }

    /// Runs `operations` inside a savepoint, which can be nested in a
    /// transaction or in another savepoint. Outside of a transaction it opens one.
    ///
    /// The savepoint is released if `operations` returns `.commit` (its changes
    /// are committed with the enclosing transaction), and rolled back if it
    /// returns `.rollback` or throws.
    ///
    /// - throws: The error of `operations`, or a ``DatabaseError``.
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        guard isInsideTransaction else {
            try inTransaction(nil, operations)
            return
        }
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "grdbcipher\(savepointDepth)"
        try execute(sql: "SAVEPOINT \(name)")
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            if isInsideTransaction {
                try? execute(sql: "ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
        switch completion {
        case .commit:
            try execute(sql: "RELEASE SAVEPOINT \(name)")
        case .rollback:
            try execute(sql: "ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
        }
    }

    /// Begins a transaction.
    ///
    /// - parameter kind: The transaction kind; default `.deferred`.
    /// - throws: A ``DatabaseError``, for example if a transaction is already open.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        try cachedStatement(sql: "BEGIN \((kind ?? .deferred).rawValue) TRANSACTION").execute()
    }

    /// Commits the current transaction.
    ///
    /// - throws: A ``DatabaseError``, for example if a foreign key check fails.
    public func commit() throws {
        try cachedStatement(sql: "COMMIT TRANSACTION").execute()
    }

    /// Rolls back the current transaction.
    ///
    /// - throws: A ``DatabaseError``, for example if no transaction is open.
    public func rollback() throws {
        try cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
    }

    /// Rolls back unless SQLite already did (after some errors it rolls back
    /// on its own).
    func rollbackIfNeeded() throws {
        if isInsideTransaction {
            try rollback()
        }
    }
}
