// Existence checks, deletions by key, batch updates, and primary-key
// requests on a table known by name: `Table("player").exists(db, key: 1)`.

extension Table {
    /// Whether a row has this primary key.
    ///
    /// ```swift
    /// let exists = try Table("player").exists(db, key: 1)   // SELECT EXISTS (SELECT * FROM "player" WHERE "id" = ?)
    /// ```
    ///
    /// - throws: A ``DatabaseError``, also when the table has no
    ///   single-column primary key.
    public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Whether a row has this unique key.
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Deletes the rows with these primary keys; returns how many. No key
    /// deletes nothing, without touching the database.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the row with this primary key; returns whether there was one.
    /// A NULL key deletes nothing, without touching the database.
    ///
    /// ```swift
    /// try Table("player").deleteOne(db, key: 1)   // DELETE FROM "player" WHERE "id" = ?
    /// ```
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        if key.databaseValue.isNull { return false }
        return try deleteAll(db, keys: [key]) > 0
    }

    /// Deletes the rows with these unique keys; returns how many.
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    @discardableResult
    public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the row with this unique key; returns whether there was one.
    ///
    /// ```swift
    /// try Table("player").deleteOne(db, key: ["email": "arthur@example.com"])
    /// ```
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    @discardableResult
    public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try deleteAll(db, keys: [key]) > 0
    }

    /// Updates every row of the table, and returns how many changed.
    ///
    /// ```swift
    /// try Table("player").updateAll(db, [Column("score").set(to: 0)])   // UPDATE "player" SET "score" = ?
    /// ```
    ///
    /// - parameter conflictResolution: `UPDATE OR ...`; by default the
    ///   update policy of `RowDecoder` when it is a
    ///   ``MutablePersistableRecord``, or `ABORT`.
    /// - parameter db: A database connection.
    /// - parameter assignments: The column assignments.
    /// - throws: A ``DatabaseError`` with the failed SQL.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates every row of the table, and returns how many changed.
    ///
    /// - throws: A ``DatabaseError`` with the failed SQL.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// A request of the table ordered by its primary key.
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> {
        all().orderByPrimaryKey()
    }

    /// A request of the primary key of the table, decoded as `type`.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
    -> QueryInterfaceRequest<PrimaryKey>
    {
        all().selectPrimaryKey(as: type)
    }
}

extension Table where RowDecoder: TableRecord {
    /// Updates every row of the table with an assignment of the record's
    /// components, and returns how many changed.
    ///
    /// - throws: A ``DatabaseError`` with the failed SQL, or what
    ///   `assignment` throws.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignment: assignment)
    }

    /// Updates every row of the table with assignments of the record's
    /// components, and returns how many changed.
    ///
    /// - throws: A ``DatabaseError`` with the failed SQL, or what
    ///   `assignments` throws.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments: assignments)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Whether a row has this id; a NULL id is never found, and does not
    /// touch the database.
    ///
    /// - throws: A ``DatabaseError``.
    public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        if id.databaseValue.isNull { return false }
        return try !filter(id: id).isEmpty(db)
    }

    /// Deletes the rows with these ids; returns how many.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int {
        if ids.isEmpty { return 0 }
        return try filter(ids: ids).deleteAll(db)
    }

    /// Deletes the row with this id; returns whether there was one.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        if id.databaseValue.isNull { return false }
        return try deleteAll(db, ids: [id]) > 0
    }
}

extension Table where RowDecoder: Identifiable {
    /// A request of the primary key of the table, decoded as the `ID` type.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> {
        all().selectID()
    }
}

extension Table where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the table's first column.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }

    /// The values of the table's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }

    /// The value of the table's first row, or nil.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
    /// The distinct values of the table's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the table's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }

    /// The values of the table's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }

    /// The value of the table's first row, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// The distinct values of the table's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}
