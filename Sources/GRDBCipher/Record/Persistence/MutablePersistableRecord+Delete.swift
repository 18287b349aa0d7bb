// Deleting records.

extension MutablePersistableRecord {
    /// Deletes the row of the record, and returns whether there was one
    /// (false when the primary key is NULL).
    ///
    /// ```swift
    /// try player.delete(db)   // DELETE FROM "player" WHERE "id"=?
    /// ```
    ///
    /// - throws: A ``DatabaseError``, or the error of a callback or of
    ///   ``EncodableRecord/encode(to:)``.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var deleted: Bool?
        try aroundDelete(db) {
            deleted = try deleteWithoutCallbacks(db)
            return deleted!
        }
        guard let deleted else { throw persistenceCallbackMisuse("aroundDelete") }
        didDelete(deleted: deleted)
        return deleted
    }
}
