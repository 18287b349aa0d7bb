// Batch deletes and updates that return the rows they write, with SQLite's
// `RETURNING` clause:
//
//     let deleted = try Player.filter { $0.score < 10 }.deleteAndFetchAll(db)
//     // DELETE FROM "player" WHERE "score" < ? RETURNING *
//
// SQLite documents the caveats of `RETURNING` (the order of the returned
// rows, triggers): <https://www.sqlite.org/lang_returning.html>.

extension QueryInterfaceRequest {
    // MARK: - Delete and fetch

    /// A prepared `DELETE ... RETURNING` statement: the rows are deleted as
    /// the statement is stepped (fetch from it).
    ///
    /// ```swift
    /// // DELETE FROM "player" RETURNING "name"
    /// let statement = try Player.all().deleteAndFetchStatement(db, selection: [Column("name")])
    /// let deletedNames = try String.fetchSet(statement)
    /// ```
    ///
    /// - parameter selection: The returned values; not empty.
    /// - parameter db: A database connection.
    /// - throws: A ``DatabaseError`` if the selection is empty (GRDB traps)
    ///   or the SQL is invalid.
    public func deleteAndFetchStatement(_ db: Database, selection: [any SQLSelectable]) throws -> Statement {
        try Self.requireReturnedValues(selection)
        let (sql, arguments) = try relation.deleteSQL(db, returning: selection.map({ $0.sqlSelection }))
        return try Self.returningStatement(db, sql: sql, arguments: arguments)
    }

    /// A prepared `UPDATE ... RETURNING` statement: the rows are updated as
    /// the statement is stepped (fetch from it).
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = "score" + ? RETURNING "score"
    /// let statement = try Player.all().updateAndFetchStatement(
    ///     db, [Column("score") += 10], selection: [Column("score")])
    /// let newScores = try Int.fetchAll(statement)
    /// ```
    ///
    /// - parameters:
    ///   - conflictResolution: `UPDATE OR ...`; by default as in
    ///     `updateAll(_:onConflict:_:)-([ColumnAssignment])`.
    ///   - assignments: The new values of the columns; at least one must
    ///     have a value.
    ///   - selection: The returned values; not empty.
    /// - parameter db: A database connection.
    /// - throws: A ``DatabaseError`` if there is no assignment or no
    ///   selection (GRDB traps), or if the SQL is invalid.
    public func updateAndFetchStatement(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment],
        selection: [any SQLSelectable]) throws -> Statement
    {
        try Self.requireReturnedValues(selection)
        guard let (sql, arguments) = try relation.updateSQL(
            db,
            conflictResolution: conflictResolution ?? defaultConflictResolutionForUpdate,
            assignments: assignments,
            returning: selection.map({ $0.sqlSelection }))
        else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "an update and fetch needs at least one assignment")
        }
        return try Self.returningStatement(db, sql: sql, arguments: arguments)
    }

    /// Throws unless the `RETURNING` clause has something to return.
    private static func requireReturnedValues(_ selection: [any SQLSelectable]) throws {
        if selection.isEmpty {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a RETURNING clause needs a selection")
        }
    }

    /// A new statement (not a cached one: the caller steps it, possibly
    /// while running other requests), with its arguments.
    private static func returningStatement(_ db: Database, sql: String, arguments: StatementArguments) throws -> Statement {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return statement
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// A prepared `DELETE ... RETURNING` statement, returning values of the
    /// record's components.
    ///
    /// ```swift
    /// let statement = try Player.all().deleteAndFetchStatement(db) { [$0.name] }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the selection is empty or the SQL
    ///   is invalid.
    public func deleteAndFetchStatement(
        _ db: Database,
        select: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) throws -> Statement
    {
        try deleteAndFetchStatement(db, selection: select(RowDecoder.databaseComponents))
    }

    /// A prepared `UPDATE ... RETURNING` statement, with assignments and
    /// returned values of the record's components.
    ///
    /// ```swift
    /// let statement = try Player.all().updateAndFetchStatement(db) {
    ///     [$0.score += 10]
    /// } select: {
    ///     [$0.score]
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if there is no assignment or no
    ///   selection, or if the SQL is invalid.
    public func updateAndFetchStatement(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment],
        select: (RowDecoder.DatabaseComponents) -> [any SQLSelectable]) throws -> Statement
    {
        try updateAndFetchStatement(
            db, onConflict: conflictResolution,
            assignments(RowDecoder.databaseComponents),
            selection: select(RowDecoder.databaseComponents))
    }

    /// Deletes the rows the request selects, and returns the primary keys
    /// of the deleted rows: `DELETE ... RETURNING "id"`.
    ///
    /// ```swift
    /// let deletedIds = try Player.filter { $0.score < 10 }.deleteAndFetchIds(db)
    /// ```
    ///
    /// - throws: A ``DatabaseError``, also when the table has no
    ///   single-column primary key (GRDB traps).
    public func deleteAndFetchIds(_ db: Database) throws -> Set<RowDecoder.ID>
    where RowDecoder: Identifiable, RowDecoder.ID: Hashable & DatabaseValueConvertible & StatementColumnConvertible
    {
        let statement = try deleteAndFetchStatement(db, selection: [Column(db.singlePrimaryKeyColumn(relation.tableName))])
        return try RowDecoder.ID.fetchSet(statement)
    }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord {
    /// Deletes the rows the request selects, and returns a cursor over the
    /// deleted records: `DELETE ... RETURNING *` (the record's
    /// ``TableRecord/databaseSelection``). The rows are deleted as the
    /// cursor is iterated.
    ///
    /// ```swift
    /// let players = try Player.all().deleteAndFetchCursor(db)
    /// while let player = try players.next() { print("deleted \(player)") }
    /// ```
    ///
    /// - throws: A ``DatabaseError``.
    public func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        try RowDecoder.fetchCursor(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Deletes the rows the request selects, and returns the deleted
    /// records: `DELETE ... RETURNING *`.
    ///
    /// ```swift
    /// // DELETE FROM "player" WHERE "score" < ? RETURNING *
    /// let deletedPlayers = try Player.filter { $0.score < 10 }.deleteAndFetchAll(db)
    /// ```
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder] {
        try Array(deleteAndFetchCursor(db))
    }

    /// Updates the rows the request selects, and returns a cursor over the
    /// updated records: `UPDATE ... RETURNING *`. The rows are updated as
    /// the cursor is iterated.
    ///
    /// - throws: A ``DatabaseError`` if there is no assignment, or if the
    ///   SQL is invalid.
    public func updateAndFetchCursor(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> RecordCursor<RowDecoder>
    {
        try RowDecoder.fetchCursor(updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows the request selects with assignments of the
    /// record's components, and returns a cursor over the updated records.
    ///
    /// - throws: A ``DatabaseError`` if there is no assignment, or if the
    ///   SQL is invalid.
    public func updateAndFetchCursor(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> RecordCursor<RowDecoder>
    {
        try updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows the request selects, and returns the updated
    /// records: `UPDATE ... RETURNING *`.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = "score" + ? WHERE "teamId" = ? RETURNING *
    /// let players = try Player.filter { $0.teamId == 1 }.updateAndFetchAll(db, [Column("score") += 10])
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if there is no assignment, or if the
    ///   SQL is invalid; a ``RowDecodingError``.
    public func updateAndFetchAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> [RowDecoder]
    {
        try Array(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the rows the request selects with assignments of the
    /// record's components, and returns the updated records.
    ///
    /// ```swift
    /// let players = try Player.all().updateAndFetchAll(db) { [$0.score += 10] }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if there is no assignment, or if the
    ///   SQL is invalid; a ``RowDecodingError``.
    public func updateAndFetchAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> [RowDecoder]
    {
        try updateAndFetchAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord & Hashable {
    /// Deletes the rows the request selects, and returns the set of the
    /// deleted records: `DELETE ... RETURNING *`.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try Set(deleteAndFetchCursor(db))
    }

    /// Updates the rows the request selects, and returns the set of the
    /// updated records: `UPDATE ... RETURNING *`.
    ///
    /// - throws: A ``DatabaseError`` if there is no assignment, or if the
    ///   SQL is invalid; a ``RowDecodingError``.
    public func updateAndFetchSet(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Set<RowDecoder>
    {
        try Set(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the rows the request selects with assignments of the
    /// record's components, and returns the set of the updated records.
    ///
    /// - throws: A ``DatabaseError`` if there is no assignment, or if the
    ///   SQL is invalid; a ``RowDecodingError``.
    public func updateAndFetchSet(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> Set<RowDecoder>
    {
        try updateAndFetchSet(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}

extension Database {
    /// The single column of a table's primary key (`"rowid"` for a table
    /// without an explicit one).
    ///
    /// - throws: A ``DatabaseError`` if the table has a multi-column
    ///   primary key, or none (a view).
    func singlePrimaryKeyColumn(_ tableName: String) throws -> String {
        let columns = try primaryKey(tableName).columns
        guard columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "a single-column primary key is required in the table \(tableName)")
        }
        return columns[0]
    }
}
