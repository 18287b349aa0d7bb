// Updating records: update, updateChanges, updateAndFetch, updateChangesAndFetch.

extension MutablePersistableRecord {
    /// Updates the columns of the row of the record that are in `columns`.
    ///
    /// ```swift
    /// try player.update(db, columns: ["name"])   // UPDATE "player" SET "name"=? WHERE "id"=?
    /// ```
    ///
    /// - throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if
    ///   no row has the primary key of the record (or if it is NULL), a
    ///   ``DatabaseError``, or the error of a callback or of
    ///   ``EncodableRecord/encode(to:)``.
    public func update(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>) throws
    {
        try update(db, onConflict: conflictResolution, columnSet: Set(columns), allColumns: false)
    }

    /// Updates the columns of the row of the record that are in `columns`.
    ///
    /// ```swift
    /// try player.update(db, columns: [Column("name")])
    /// ```
    ///
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``.
    public func update(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>) throws
    {
        try update(db, onConflict: conflictResolution, columns: columns.map({ $0.name }))
    }

    /// Updates all the columns of the row of the record.
    ///
    /// ```swift
    /// try player.update(db)   // UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?
    /// ```
    ///
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try update(db, onConflict: conflictResolution, columnSet: tableColumnNames(db), allColumns: true)
    }

    /// Updates the columns whose values differ in `record`, if any, and
    /// returns whether there were some.
    ///
    /// ```swift
    /// let oldPlayer = player
    /// player.score += 10
    /// try player.updateChanges(db, from: oldPlayer)   // UPDATE "player" SET "score"=? WHERE "id"=?
    /// ```
    ///
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``.
    @discardableResult
    public func updateChanges<Record: MutablePersistableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, from record: Record)
    throws -> Bool
    {
        try updateChanges(db, onConflict: conflictResolution, from: PersistenceContainer(record))
    }

    /// Modifies the record, updates the columns that changed, if any, and
    /// returns whether there were some.
    ///
    /// ```swift
    /// try player.updateChanges(db) { $0.score += 10 }
    /// ```
    ///
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``,
    ///   or the error of `modify`.
    @discardableResult
    public mutating func updateChanges(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void)
    throws -> Bool
    {
        let before = try PersistenceContainer(self)
        try modify(&self)
        return try updateChanges(db, onConflict: conflictResolution, from: before)
    }

    /// Updates all the columns, and returns the updated row
    /// (`RETURNING *`).
    ///
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``.
    public func updateAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
    where Self: FetchableRecord
    {
        try updateAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Updates all the columns, and returns the updated row decoded as
    /// `returnedType`.
    ///
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``.
    public func updateAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type)
    throws -> T
    {
        try updateAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            try fetchUpdatedRecord($0, db, as: T.self)
        }
    }

    /// Modifies the record, updates the columns that changed, and returns
    /// the updated row, or nil if nothing changed.
    ///
    /// - throws: See ``updateChanges(_:onConflict:modify:)``.
    public mutating func updateChangesAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void)
    throws -> Self?
    where Self: FetchableRecord
    {
        try updateChangesAndFetch(db, onConflict: conflictResolution, as: Self.self, modify: modify)
    }

    /// Modifies the record, updates the columns that changed, and returns
    /// the updated row decoded as `returnedType`, or nil if nothing changed.
    ///
    /// - throws: See ``updateChanges(_:onConflict:modify:)``.
    public mutating func updateChangesAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type, modify: (inout Self) throws -> Void)
    throws -> T?
    {
        try updateChangesAndFetch(
            db, onConflict: conflictResolution, selection: T.databaseSelection,
            fetch: { [self] in try fetchUpdatedRecord($0, db, as: T.self) }, modify: modify)
    }

    /// Updates the columns of the row that are in `columns` with
    /// `RETURNING selection`, and returns what `fetch` gets from the
    /// statement.
    ///
    /// - precondition: `selection` is not empty.
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>, selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> T
    {
        try updateAndFetch(
            db, onConflict: conflictResolution, columnSet: Set(columns), allColumns: false,
            selection: selection, fetch: fetch)
    }

    /// Updates the columns of the row that are in `columns` with
    /// `RETURNING selection`, and returns what `fetch` gets from the
    /// statement.
    ///
    /// - precondition: `selection` is not empty.
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>, selection: [any SQLSelectable],
        fetch: (Statement) throws -> T)
    throws -> T
    {
        try updateAndFetch(
            db, onConflict: conflictResolution, columns: columns.map({ $0.name }), selection: selection, fetch: fetch)
    }

    /// Updates all the columns with `RETURNING selection`, and returns what
    /// `fetch` gets from the statement.
    ///
    /// - precondition: `selection` is not empty.
    /// - throws: See ``update(_:onConflict:columns:)-(_,_,Collection<String>)``.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> T
    {
        try updateAndFetch(
            db, onConflict: conflictResolution, columnSet: tableColumnNames(db), allColumns: true,
            selection: selection, fetch: fetch)
    }

    /// Modifies the record, updates the columns that changed with
    /// `RETURNING selection`, and returns what `fetch` gets from the
    /// statement, or nil if nothing changed.
    ///
    /// - throws: See ``updateChanges(_:onConflict:modify:)``.
    public mutating func updateChangesAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T, modify: (inout Self) throws -> Void)
    throws -> T?
    {
        let before = try PersistenceContainer(self)
        try modify(&self)
        let changed = try changedColumns(from: before)
        if changed.isEmpty { return nil }
        return try updateAndFetch(db, onConflict: conflictResolution, columns: changed, selection: selection, fetch: fetch)
    }
}

extension MutablePersistableRecord {
    /// The updated row, or RecordError.recordNotFound if there is none.
    private func fetchUpdatedRecord<T: FetchableRecord>(_ statement: Statement, _ db: Database, as type: T.Type) throws -> T {
        if let record = try T.fetchOne(statement) { return record }
        throw Swift.type(of: self).recordNotFound(try db.primaryKey(Swift.type(of: self).databaseTableName), try persistenceContainer())
    }

    /// The names of the columns of the record's table.
    func tableColumnNames(_ db: Database) throws -> Set<String> {
        try Set(db.columns(in: type(of: self).databaseTableName).map({ $0.name }))
    }

    /// The columns whose value differs from `container`.
    private func changedColumns(from container: PersistenceContainer) throws -> Set<String> {
        Set(try PersistenceContainer(self).changes(from: container).map(\.0))
    }

    private func updateChanges(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        from container: PersistenceContainer) throws -> Bool
    {
        let changed = try changedColumns(from: container)
        if changed.isEmpty { return false }
        try update(db, onConflict: conflictResolution, columns: changed)
        return true
    }

    /// The update with the save callbacks around the update callbacks.
    /// `allColumns` says that `columnSet` holds all the columns of the
    /// table: the plan of the statement can then be cached.
    private func update(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        columnSet: Set<String>, allColumns: Bool) throws
    {
        // An update leaves the record as it is: the callbacks run on a copy.
        var copy = self
        try copy.withSaveCallbacks(db) { record in
            try record.updateWithCallbacks(db, onConflict: conflictResolution, columns: columnSet, allColumns: allColumns)
        }
    }

    private func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        columnSet: Set<String>, allColumns: Bool,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        var copy = self
        return try copy.withSaveCallbacksFetching(db) { record in
            try record.updateAndFetchWithCallbacks(
                db, onConflict: conflictResolution, columns: columnSet, allColumns: allColumns,
                selection: selection, fetch: fetch)
        }
    }

    /// The update with its own callbacks.
    func updateWithCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>, allColumns: Bool) throws -> PersistenceSuccess
    {
        try willUpdate(db, columns: columns)
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: columns) {
            updated = try updateWithoutCallbacks(db, onConflict: conflictResolution, columns: allColumns ? nil : columns)
            return updated!
        }
        guard let updated else { throw persistenceCallbackMisuse("aroundUpdate") }
        didUpdate(updated)
        return updated
    }

    /// The update with a RETURNING clause, with its own callbacks.
    func updateAndFetchWithCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>, allColumns: Bool,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> (PersistenceSuccess, T)
    {
        try willUpdate(db, columns: columns)
        var result: (PersistenceSuccess, T)?
        try aroundUpdate(db, columns: columns) {
            result = try updateAndFetchWithoutCallbacks(
                db, onConflict: conflictResolution, columns: allColumns ? nil : columns,
                selection: selection, fetch: fetch)
            return result!.0
        }
        guard let result else { throw persistenceCallbackMisuse("aroundUpdate") }
        didUpdate(result.0)
        return result
    }
}
