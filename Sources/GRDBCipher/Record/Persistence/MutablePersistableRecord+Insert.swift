// Inserting records: insert, inserted, insertAndFetch.

extension MutablePersistableRecord {
    /// Inserts the record, and calls ``didInsert(_:)`` with the rowid.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// try player.insert(db)   // INSERT INTO "player" ("id", "name") VALUES (?,?)
    /// ```
    ///
    /// - parameter conflictResolution: `INSERT OR ...`; by default, the
    ///   insert policy of ``persistenceConflictPolicy``.
    /// - parameter db: A database connection.
    /// - throws: A ``DatabaseError``, or the error of a callback or of
    ///   ``EncodableRecord/encode(to:)``.
    @inlinable
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try withSaveCallbacks(db) { record in
            try PersistenceSuccess(record.insertWithCallbacks(db, onConflict: conflictResolution))
        }
    }

    /// Inserts a copy of the record, and returns it after ``didInsert(_:)``.
    ///
    /// ```swift
    /// let player = try Player(id: nil, name: "Arthur").inserted(db)
    /// ```
    ///
    /// - throws: See ``insert(_:onConflict:)``.
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.insert(db, onConflict: conflictResolution)
        return record
    }

    /// Inserts a copy of the record, and returns the inserted row as
    /// selected by ``TableRecord/databaseSelection`` (`RETURNING *`).
    ///
    /// - throws: See ``insert(_:onConflict:)``.
    public func insertAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
    where Self: FetchableRecord
    {
        var record = self
        return try record.insertAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Inserts the record, and returns the inserted row decoded as
    /// `returnedType`, selected by its ``TableRecord/databaseSelection``.
    ///
    /// ```swift
    /// // INSERT INTO "player" ("name") VALUES (?) RETURNING *
    /// let player = try partialPlayer.insertAndFetch(db, as: Player.self)
    /// ```
    ///
    /// - throws: See ``insert(_:onConflict:)``.
    public mutating func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type)
    throws -> T
    {
        try insertAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            try Self.fetchReturnedRecord($0, as: T.self)
        }
    }

    /// Inserts the record with `RETURNING selection`, and returns what
    /// `fetch` gets from the statement.
    ///
    /// - precondition: `selection` is not empty.
    /// - throws: See ``insert(_:onConflict:)``.
    public mutating func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> T
    {
        try withSaveCallbacksFetching(db) { record in
            let (inserted, fetched) = try record.insertAndFetchWithCallbacks(
                db, onConflict: conflictResolution, selection: selection, fetch: fetch)
            return (PersistenceSuccess(inserted), fetched)
        }
    }

    /// Inserts the record with a RETURNING clause built from the record's
    /// columns, and returns what `fetch` gets from the statement.
    ///
    /// ```swift
    /// // INSERT INTO "player" ("name") VALUES (?) RETURNING "score"
    /// let score = try partialPlayer.insertAndFetch(db) { statement in
    ///     try Int.fetchOne(statement)
    /// } select: {
    ///     [$0.score]
    /// }
    /// ```
    ///
    /// - throws: See ``insert(_:onConflict:)``.
    public mutating func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select: (DatabaseComponents) throws -> [any SQLSelectable])
    throws -> T
    {
        try insertAndFetch(db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }
}

extension MutablePersistableRecord {
    /// The insertion with its own callbacks.
    @inlinable
    mutating func insertWithCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> InsertionSuccess
    {
        try willInsert(db)
        var inserted: InsertionSuccess?
        try aroundInsert(db) {
            inserted = try insertWithoutCallbacks(db, onConflict: conflictResolution)
            return inserted!
        }
        guard let inserted else { throw persistenceCallbackMisuse("aroundInsert") }
        didInsert(inserted)
        return inserted
    }

    /// The insertion with a RETURNING clause, with its own callbacks.
    mutating func insertAndFetchWithCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> (InsertionSuccess, T)
    {
        try willInsert(db)
        var result: (InsertionSuccess, T)?
        try aroundInsert(db) {
            result = try insertAndFetchWithoutCallbacks(
                db, onConflict: conflictResolution, selection: selection, fetch: fetch)
            return result!.0
        }
        guard let result else { throw persistenceCallbackMisuse("aroundInsert") }
        didInsert(result.0)
        return result
    }
}
