// Saving records: an UPDATE, or an INSERT when no row was updated.

extension MutablePersistableRecord {
    /// Updates the row of the record if its primary key is not NULL and a
    /// row has it; inserts the record otherwise.
    ///
    /// ```swift
    /// try player.save(db)   // UPDATE, then INSERT if no row was updated
    /// ```
    ///
    /// Update callbacks run for the update, insertion callbacks for the
    /// insert, and the save callbacks around both.
    ///
    /// - throws: A ``DatabaseError``, or the error of a callback or of
    ///   ``EncodableRecord/encode(to:)``.
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try withSaveCallbacks(db) { record in
            try record.updateOrInsertAndFetchWithCallbacks(db, onConflict: conflictResolution, selection: nil) { _ in }.0
        }
    }

    /// Saves a copy of the record, and returns it.
    ///
    /// - throws: See ``save(_:onConflict:)``.
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.save(db, onConflict: conflictResolution)
        return record
    }

    /// Saves a copy of the record, and returns the saved row
    /// (`RETURNING *`).
    ///
    /// - throws: See ``save(_:onConflict:)``.
    public func saveAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
    where Self: FetchableRecord
    {
        var record = self
        return try record.saveAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Saves the record, and returns the saved row decoded as
    /// `returnedType`.
    ///
    /// - throws: See ``save(_:onConflict:)``.
    public mutating func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type)
    throws -> T
    {
        try saveAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            try Self.fetchReturnedRecord($0, as: T.self)
        }
    }

    /// Saves the record with `RETURNING selection`, and returns what
    /// `fetch` gets from the statement.
    ///
    /// - precondition: `selection` is not empty.
    /// - throws: See ``save(_:onConflict:)``.
    public mutating func saveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> T
    {
        try withSaveCallbacksFetching(db) { record in
            try record.updateOrInsertAndFetchWithCallbacks(
                db, onConflict: conflictResolution, selection: selection, fetch: fetch)
        }
    }
}

extension MutablePersistableRecord {
    /// An update if the primary key is not NULL, else or if no row was
    /// updated an insert, with their callbacks. A nil `selection` runs
    /// statements without RETURNING clause, and `fetch` is not called.
    mutating func updateOrInsertAndFetchWithCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable]?, fetch: (Statement) throws -> T)
    throws -> (PersistenceSuccess, T)
    {
        let tableName = type(of: self).databaseTableName
        if let key = try primaryKeyValues(db) {
            let columns = try tableColumnNames(db)
            do {
                if let selection {
                    return try updateAndFetchWithCallbacks(
                        db, onConflict: conflictResolution, columns: columns, allColumns: true,
                        selection: selection, fetch: fetch)
                }
                let updated = try updateWithCallbacks(db, onConflict: conflictResolution, columns: columns, allColumns: true)
                return (updated, try fetchNothing(fetch))
            } catch let RecordError.recordNotFound(databaseTableName: notFoundTable, key: notFoundKey)
                where notFoundTable == tableName && notFoundKey == key
            {
                // No row has this record's key: insert. A record not found
                // by a callback (another key) is an error, as in GRDB.
            }
        }
        if let selection {
            let (inserted, returned) = try insertAndFetchWithCallbacks(
                db, onConflict: conflictResolution, selection: selection, fetch: fetch)
            return (PersistenceSuccess(inserted), returned)
        }
        let inserted = try insertWithCallbacks(db, onConflict: conflictResolution)
        return (PersistenceSuccess(inserted), try fetchNothing(fetch))
    }

    /// The value of a `fetch` that is never given a statement: only
    /// `Void` fetches are, when there is no RETURNING clause.
    private func fetchNothing<T>(_ fetch: (Statement) throws -> T) throws -> T {
        guard let nothing = () as? T else {
            preconditionFailure("a save without RETURNING clause returns Void")
        }
        return nothing
    }
}
