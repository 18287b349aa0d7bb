// Batch updates: `UPDATE` of the rows a request selects, with column
// assignments.
//
//     try Player.filter { $0.teamId == 1 }.updateAll(db) { $0.score += 10 }
//     // UPDATE "player" SET "score" = "score" + ? WHERE "teamId" = ?

extension QueryInterfaceRequest {
    /// The conflict resolution of an update without `onConflict:`: the
    /// update policy of the record's ``MutablePersistableRecord/persistenceConflictPolicy``
    /// when the request fetches persistable records, SQLite's `ABORT` otherwise.
    var defaultConflictResolutionForUpdate: Database.ConflictResolution {
        // Asked at run time, as GRDB does, so that generic code gets the
        // policy of the actual record type.
        if let recordType = RowDecoder.self as? any MutablePersistableRecord.Type {
            return recordType.persistenceConflictPolicy.conflictResolutionForUpdate
        }
        return .abort
    }

    /// Updates the rows the request selects, and returns how many changed.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = "score" + ?, "bonus" = ? WHERE "teamId" = ?
    /// try Player.filter(Column("teamId") == 1)
    ///     .updateAll(db, [Column("score") += 10, Column("bonus").set(to: 0)])
    /// ```
    ///
    /// A limited request updates `... ORDER BY ... LIMIT n`; a grouped one
    /// updates the rows whose primary key its groups select. Assignments
    /// without a value (``ColumnExpression/noOverwrite``) are ignored; when
    /// no assignment is left, the database is not touched and the result is 0.
    ///
    /// - parameters:
    ///   - conflictResolution: `UPDATE OR ...`; by default the update policy
    ///     of the record's ``MutablePersistableRecord/persistenceConflictPolicy``,
    ///     or `ABORT` (a plain `UPDATE`).
    ///   - assignments: The new values of the columns.
    /// - parameter db: A database connection.
    /// - returns: The number of changed rows.
    /// - throws: A ``DatabaseError`` with the failed SQL: an unknown column,
    ///   a violated constraint.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        guard let (sql, arguments) = try relation.updateSQL(
            db,
            conflictResolution: conflictResolution ?? defaultConflictResolutionForUpdate,
            assignments: assignments)
        else { return 0 }
        return try db.countingChangedRows(inTable: relation.tableName) {
            try db.cachedStatement(sql: sql).execute(arguments: arguments)
        }.changes
    }

    /// Updates the rows the request selects, and returns how many changed.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = ?
    /// try Player.all().updateAll(db, Column("score").set(to: 0))
    /// ```
    ///
    /// See `updateAll(_:onConflict:_:)-([ColumnAssignment])`.
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
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Updates the rows the request selects with an assignment of the
    /// record's components, and returns how many changed.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = ?
    /// try Player.all().updateAll(db) { $0.score.set(to: 0) }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` with the failed SQL, or what
    ///   `assignment` throws.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }

    /// Updates the rows the request selects with assignments of the
    /// record's components, and returns how many changed.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = "score" + ?, "bonus" = ?
    /// try Player.all().updateAll(db) { [$0.score += 10, $0.bonus.set(to: 0)] }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` with the failed SQL, or what
    ///   `assignments` throws.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}

extension TableRecord {
    /// Updates every row of the table, and returns how many changed.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = ?
    /// try Player.updateAll(db, [Column("score").set(to: 0)])
    /// ```
    ///
    /// - parameter conflictResolution: `UPDATE OR ...`; by default the
    ///   update policy of the record's
    ///   ``MutablePersistableRecord/persistenceConflictPolicy``, or `ABORT`.
    /// - parameter assignments: The column assignments.
    /// - parameter db: A database connection.
    /// - throws: A ``DatabaseError`` with the failed SQL.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates every row of the table, and returns how many changed.
    ///
    /// ```swift
    /// // UPDATE OR IGNORE "player" SET "score" = "score" * ?
    /// try Player.updateAll(db, onConflict: .ignore, Column("score") *= 2)
    /// ```
    ///
    /// - throws: A ``DatabaseError`` with the failed SQL.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates every row of the table with an assignment of the record's
    /// components, and returns how many changed.
    ///
    /// ```swift
    /// try Player.updateAll(db) { $0.score.set(to: 0) }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` with the failed SQL, or what
    ///   `assignment` throws.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, [assignment(databaseComponents)])
    }

    /// Updates every row of the table with assignments of the record's
    /// components, and returns how many changed.
    ///
    /// ```swift
    /// try Player.updateAll(db) { [$0.score += 1, $0.bonus.set(to: nil)] }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` with the failed SQL, or what
    ///   `assignments` throws.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments(databaseComponents))
    }
}
