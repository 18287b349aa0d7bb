// Upserting records: INSERT ... ON CONFLICT DO UPDATE SET ... RETURNING.

extension MutablePersistableRecord {
    /// Inserts the record, or, if it violates a uniqueness constraint,
    /// updates the existing row with all the inserted columns but the
    /// primary key. The callbacks are those of an insert; ``didInsert(_:)``
    /// gets the rowid of the inserted or updated row.
    ///
    /// ```swift
    /// // INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)
    /// // ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "score" = "excluded"."score"
    /// // RETURNING "rowid"
    /// try player.upsert(db)
    /// ```
    ///
    /// - throws: A ``DatabaseError``, or the error of a callback or of
    ///   ``EncodableRecord/encode(to:)``.
    public mutating func upsert(_ db: Database) throws {
        try withSaveCallbacks(db) { record in
            let (inserted, _) = try record.upsertAndFetchWithCallbacks(
                db, onConflict: [], updating: .allColumns, doUpdate: nil, selection: []) { _ in }
            return PersistenceSuccess(inserted)
        }
    }

    /// Upserts the record, and returns the upserted row (`RETURNING *`).
    ///
    /// ```swift
    /// // INSERT INTO "vocabulary" ("word", "kind", "isTainted") VALUES (?,?,?)
    /// // ON CONFLICT("word") DO UPDATE SET "count" = "count" + ?, "kind" = "excluded"."kind"
    /// // RETURNING *, "rowid"
    /// let upserted = try vocabulary.upsertAndFetch(db, onConflict: ["word"]) { _ in
    ///     [Column("count") += 1, Column("isTainted").noOverwrite]
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - conflictTarget: The columns of the uniqueness constraint that
    ///     triggers the update; all constraints when empty.
    ///   - strategy: Whether columns without assignment are overwritten
    ///     with the inserted values (all but the primary key and the
    ///     conflict target).
    ///   - assignments: Assignments for the update; `excluded` refers to
    ///     the inserted values.
    /// - parameter db: A database connection.
    /// - throws: See ``upsert(_:)``.
    public mutating func upsertAndFetch(
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
    public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil)
    throws -> T
    {
        try withSaveCallbacksFetching(db) { record in
            let (inserted, fetched) = try record.upsertAndFetchWithCallbacks(
                db, onConflict: conflictTarget, updating: strategy, doUpdate: assignments,
                selection: T.databaseSelection, decode: { try T(row: $0) })
            return (PersistenceSuccess(inserted), fetched)
        }
    }
}

extension MutablePersistableRecord {
    /// The upsert with the insertion callbacks.
    mutating func upsertAndFetchWithCallbacks<T>(
        _ db: Database, onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?,
        selection: [any SQLSelectable], decode: (Row) throws -> T)
    throws -> (InsertionSuccess, T)
    {
        try willInsert(db)
        var result: (InsertionSuccess, T)?
        try aroundInsert(db) {
            result = try upsertAndFetchWithoutCallbacks(
                db, onConflict: conflictTarget, updating: strategy, doUpdate: assignments,
                selection: selection, decode: decode)
            return result!.0
        }
        guard let result else { throw persistenceCallbackMisuse("aroundInsert") }
        didInsert(result.0)
        return result
    }

    /// Runs the upsert, returning `selection` and the rowid, and decodes
    /// the returned row.
    private func upsertAndFetchWithoutCallbacks<T>(
        _ db: Database, onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?,
        selection: [any SQLSelectable], decode: (Row) throws -> T)
    throws -> (InsertionSuccess, T)
    {
        let tableName = type(of: self).databaseTableName
        let primaryKey = try db.primaryKey(tableName)
        var container = try persistenceContainer()
        let columns = container.columns

        var sql = SQL(
            sql: "INSERT INTO \(tableName.quotedDatabaseIdentifier) ("
                + columns.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ")
                + ") VALUES (\(databaseQuestionMarks(count: columns.count)))",
            arguments: StatementArguments(container.values))
        if conflictTarget.isEmpty {
            sql += SQL(sql: " ON CONFLICT")
        } else {
            sql += SQL(sql: " ON CONFLICT(" + conflictTarget.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ") + ")")
        }
        sql += SQL(sql: " DO UPDATE SET ")

        // Explicit assignments first, then the inserted columns that are
        // neither in the key nor in the target, nor assigned already.
        let excluded = TableAlias<Self>(name: "excluded")
        var allAssignments = assignments?(excluded) ?? []
        if strategy.contains(.allColumns) {
            let kept = Set((primaryKey.columns + conflictTarget).map { $0.lowercased() })
            for column in columns {
                let lowercased = column.lowercased()
                if kept.contains(lowercased) { continue }
                if allAssignments.contains(where: { $0.columnName.lowercased() == lowercased }) { continue }
                allAssignments.append(Column(column).set(to: excluded[column]))
            }
        }
        let assignmentsSQL = allAssignments.compactMap({ $0.sql })
        if assignmentsSQL.isEmpty {
            // Assign something, or a conflicting row would return nothing.
            let column = primaryKey.columns[0].quotedDatabaseIdentifier
            sql += SQL(sql: "\(column) = \(column)")
        } else {
            sql += assignmentsSQL.joined(separator: ", ")
        }

        let statement = try Self.returningStatement(
            db, sql: sql, tableName: tableName, selection: selection + [Column.rowID])
        let cursor = try Row.fetchCursor(statement)
        guard let row = try cursor.next() else {
            throw DatabaseError(message: "Insertion failed", sql: statement.sql)
        }
        // The rowid is the last returned column.
        let rowID: Int64 = row[row.count - 1]
        let returned = try decode(row)
        // Run to the end, as some virtual tables only write then.
        while try cursor.next() != nil { }

        let rowIDColumn = primaryKey.rowIDColumn
        if let rowIDColumn {
            container.setValue(rowID.databaseValue, forColumn: rowIDColumn)
        }
        return (InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container), returned)
    }
}
