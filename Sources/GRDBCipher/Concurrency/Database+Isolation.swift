extension Database {
    /// Runs `block` in a deferred transaction with writes forbidden
    /// (`PRAGMA query_only`): a read sees one stable state and cannot write.
    func readOnlyTransaction<T>(_ block: (Database) throws -> T) throws -> T {
        try cachedStatement(sql: "PRAGMA query_only = 1").execute()
        defer { try? cachedStatement(sql: "PRAGMA query_only = 0").execute() }
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
