// The persistence methods of PersistableRecord: those of
// MutablePersistableRecord that mutate the record, without mutation.

extension PersistableRecord {
    /// Inserts the record.
    ///
    /// ```swift
    /// try country.insert(db)   // INSERT INTO "country" ("isoCode", "name") VALUES (?,?)
    /// ```
    ///
    /// - throws: A ``DatabaseError``, or the error of a callback or of
    ///   ``EncodableRecord/encode(to:)``.
    @inlinable
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.mutatingInsert(db, onConflict: conflictResolution)
    }

    /// Inserts the record, and returns the inserted row decoded as
    /// `returnedType`.
    ///
    /// - throws: See ``insert(_:onConflict:)``.
    public func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type)
    throws -> T
    {
        var record = self
        return try record.mutatingInsertAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            try Self.fetchReturnedRecord($0, as: T.self)
        }
    }

    /// Inserts the record with `RETURNING selection`, and returns what
    /// `fetch` gets from the statement.
    ///
    /// - precondition: `selection` is not empty.
    /// - throws: See ``insert(_:onConflict:)``.
    public func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> T
    {
        var record = self
        return try record.mutatingInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// Inserts the record with a RETURNING clause built from the record's
    /// columns, and returns what `fetch` gets from the statement.
    ///
    /// - throws: See ``insert(_:onConflict:)``.
    public func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select: (DatabaseComponents) throws -> [any SQLSelectable])
    throws -> T
    {
        try insertAndFetch(db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    /// Updates the row of the record, or inserts it; see
    /// ``MutablePersistableRecord/save(_:onConflict:)``.
    ///
    /// - throws: A ``DatabaseError``, or the error of a callback or of
    ///   ``EncodableRecord/encode(to:)``.
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.mutatingSave(db, onConflict: conflictResolution)
    }

    /// Saves the record, and returns the saved row decoded as
    /// `returnedType`.
    ///
    /// - throws: See ``save(_:onConflict:)``.
    public func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type)
    throws -> T
    {
        var record = self
        return try record.mutatingSaveAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            try Self.fetchReturnedRecord($0, as: T.self)
        }
    }

    /// Saves the record with `RETURNING selection`, and returns what
    /// `fetch` gets from the statement.
    ///
    /// - precondition: `selection` is not empty.
    /// - throws: See ``save(_:onConflict:)``.
    public func saveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> T
    {
        var record = self
        return try record.mutatingSaveAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// Inserts the record, or updates the row it conflicts with; see
    /// ``MutablePersistableRecord/upsert(_:)``.
    ///
    /// - throws: A ``DatabaseError``, or the error of a callback or of
    ///   ``EncodableRecord/encode(to:)``.
    public func upsert(_ db: Database) throws {
        var record = self
        try record.mutatingUpsert(db)
    }

    /// Upserts the record, and returns the upserted row; see
    /// ``MutablePersistableRecord/upsertAndFetch(_:onConflict:updating:doUpdate:)``.
    ///
    /// - throws: See ``upsert(_:)``.
    public func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil)
    throws -> Self
    where Self: FetchableRecord
    {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
    }

    /// Upserts the record, and returns the upserted row decoded as
    /// `returnedType`.
    ///
    /// - throws: See ``upsert(_:)``.
    public func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil)
    throws -> T
    {
        var record = self
        return try record.mutatingUpsertAndFetch(
            db, as: returnedType, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
    }
}

// Unambiguous names for the mutating methods, which the non-mutating ones
// above call on a copy. Inserting is inlinable, so that the client module
// specializes it for each record type: see `withSaveCallbacks`.
extension MutablePersistableRecord {
    @inlinable
    mutating func mutatingInsert(_ db: Database, onConflict: Database.ConflictResolution?) throws {
        try insert(db, onConflict: onConflict)
    }

    mutating func mutatingInsertAndFetch<T>(
        _ db: Database, onConflict: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        try insertAndFetch(db, onConflict: onConflict, selection: selection, fetch: fetch)
    }

    mutating func mutatingSave(_ db: Database, onConflict: Database.ConflictResolution?) throws {
        try save(db, onConflict: onConflict)
    }

    mutating func mutatingSaveAndFetch<T>(
        _ db: Database, onConflict: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        try saveAndFetch(db, onConflict: onConflict, selection: selection, fetch: fetch)
    }

    mutating func mutatingUpsert(_ db: Database) throws {
        try upsert(db)
    }

    mutating func mutatingUpsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, as returnedType: T.Type, onConflict: [String], updating: UpsertUpdateStrategy,
        doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?) throws -> T
    {
        try upsertAndFetch(db, as: returnedType, onConflict: onConflict, updating: updating, doUpdate: doUpdate)
    }
}
