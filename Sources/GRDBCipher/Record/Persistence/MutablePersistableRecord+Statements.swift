import CSQLCipher

// The statements that persistence methods run, without callbacks: what
// GRDB's documentation calls the persistence "actions".

extension MutablePersistableRecord {
    /// The values of the record, checked not empty.
    func persistenceContainer(layout: PersistenceContainer.Layout? = nil) throws -> PersistenceContainer {
        var container = PersistenceContainer(layout: layout)
        try encode(to: &container)
        if container.isEmpty {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(Self.self): invalid empty persistence container")
        }
        return container
    }

    /// The plan of an INSERT or of a full UPDATE, from the connection's
    /// cache, and the record's container, encoded in the layout of the
    /// cached plan, so that checking that the plan fits is cheap.
    private func cachedPlan(
        _ db: Database, recordType: ObjectIdentifier, kind: PersistencePlan.Key.Kind, tableName: String,
        build: (PersistencePlan.Key, PersistenceContainer, PrimaryKeyInfo) throws -> PersistencePlan)
    throws -> (PersistencePlan, PersistenceContainer)
    {
        try db.validateSchemaCache()
        let key = PersistencePlan.Key(recordType: recordType, kind: kind)
        // The plans object, not a method of the cache: calling one copied
        // the whole cache struct on each write (callgrind).
        let cached = db.schemaCache.existingRecordPlans?.persistencePlan(for: key)
        let container = try persistenceContainer(layout: cached?.layout)
        if let cached, cached.fits(tableName: tableName, container: container) {
            return (cached, container)
        }
        let primaryKey = try db.resolvedPrimaryKey(tableName)
        let plan = try build(key, container, primaryKey)
        plan.statement = try db.makeStatement(sql: plan.sql)
        db.schemaCache.recordPlans.setPersistencePlan(plan)
        return (plan, container)
    }

    /// The container with the inserted rowid in its rowid column.
    ///
    /// The container is consumed: the caller's last use, so that storing the
    /// rowid does not copy a storage that the caller still holds.
    private static func insertionSuccess(
        _ db: Database, container: consuming PersistenceContainer, rowIDColumn: String?) -> InsertionSuccess
    {
        let rowID = db.lastInsertedRowID
        if let rowIDColumn {
            container.setValue(.init(storage: .int64(rowID)), forColumn: rowIDColumn)
        }
        return InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
    }

    // MARK: - Insert

    /// Runs the INSERT, and returns what the insertion callbacks get.
    @usableFromInline
    func insertWithoutCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> InsertionSuccess
    {
        // The dynamic type, asked once: a `Record` subclass handled as its
        // base class keeps its own table, policy and plans. For structs,
        // it is `Self`.
        let recordType = type(of: self)
        let conflictResolution = conflictResolution ?? recordType.persistenceConflictPolicy.conflictResolutionForInsert
        let tableName = recordType.databaseTableName
        let (plan, container) = try cachedPlan(
            db, recordType: ObjectIdentifier(recordType), kind: .insert(conflictResolution), tableName: tableName)
        { key, container, primaryKey in
            PersistencePlan(
                key: key, tableName: tableName, container: container, primaryKey: primaryKey,
                sql: PersistencePlan.insertSQL(
                    tableName: tableName, columns: container.columns, onConflict: conflictResolution),
                parameterIndexes: nil)
        }
        let statement = try plan.preparedStatement(db)
        try statement.bindPersistenceValues(of: container, at: nil)
        try statement.executePersistence(of: container, at: nil)
        return Self.insertionSuccess(db, container: consume container, rowIDColumn: plan.rowIDColumn)
    }

    /// Runs the INSERT with a RETURNING clause, hands the statement to
    /// `fetch`, and returns what the insertion callbacks get.
    func insertAndFetchWithoutCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> (InsertionSuccess, T)
    {
        let conflictResolution = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForInsert
        let tableName = type(of: self).databaseTableName
        let container = try persistenceContainer()
        let primaryKey = try db.primaryKey(tableName)
        let sql = PersistencePlan.insertSQL(tableName: tableName, columns: container.columns, onConflict: conflictResolution)
        let statement = try Self.returningStatement(
            db, sql: SQL(sql: sql, arguments: StatementArguments(container.values)),
            tableName: tableName, selection: selection)
        let returned = try fetch(statement)
        return (Self.insertionSuccess(db, container: consume container, rowIDColumn: primaryKey.rowIDColumn), returned)
    }

    /// A cached statement: `sql RETURNING selection`, with its arguments.
    static func returningStatement(
        _ db: Database, sql: SQL, tableName: String, selection: [any SQLSelectable]) throws -> Statement
    {
        precondition(!selection.isEmpty, "a RETURNING clause needs a selection")
        let returning = try selection
            .map { try $0.sqlSelection.sql(db, tableName: tableName) }
            .joined(separator: ", ")
        let full = sql + SQL(sql: " RETURNING ") + returning
        let (fullSQL, arguments) = try full.build(db)
        let statement = try db.cachedStatement(sql: fullSQL)
        try statement.setArguments(arguments)
        return statement
    }

    /// Fetches one record from a RETURNING statement, and steps it to the
    /// end (some virtual tables only write then).
    static func fetchReturnedRecord<T: FetchableRecord>(_ statement: Statement, as type: T.Type) throws -> T {
        let cursor = try T.fetchCursor(statement)
        guard let record = try cursor.next() else {
            throw DatabaseError(message: "Insertion failed", sql: statement.sql)
        }
        while try cursor.next() != nil { }
        return record
    }

    // MARK: - Update

    /// The key of the record: its primary key values, or nil if they are
    /// all NULL.
    func primaryKeyValues(_ db: Database) throws -> [String: DatabaseValue]? {
        let primaryKey = try db.primaryKey(type(of: self).databaseTableName)
        let container = try persistenceContainer()
        return Self.keyDictionary(primaryKey, container)
    }

    static func keyDictionary(_ primaryKey: PrimaryKeyInfo, _ container: PersistenceContainer) -> [String: DatabaseValue]? {
        let key = primaryKey.columns.map { ($0, container.databaseValue(at: $0)) }
        if key.allSatisfy({ $0.1.isNull }) { return nil }
        return Dictionary(key, uniquingKeysWith: { first, _ in first })
    }

    static func recordNotFound(_ primaryKey: PrimaryKeyInfo, _ container: PersistenceContainer) -> RecordError {
        let key = primaryKey.columns.map { ($0, container.databaseValue(at: $0)) }
        return RecordError.recordNotFound(
            databaseTableName: databaseTableName,
            key: Dictionary(key, uniquingKeysWith: { first, _ in first }))
    }

    /// Builds an UPDATE: the columns of the table that are in `columns` (all
    /// when nil) and in the container, but not in the primary key; the key
    /// itself when there is none left.
    private static func updatePlan(
        _ db: Database, key: PersistencePlan.Key, tableName: String, container: PersistenceContainer,
        primaryKey: PrimaryKeyInfo, columns: Set<String>?, onConflict conflictResolution: Database.ConflictResolution)
    throws -> PersistencePlan
    {
        let keyColumns = primaryKey.columns
        let keyLowercased = Set(keyColumns.map { $0.lowercased() })
        var wanted = Set(container.columns.map { $0.lowercased() }).subtracting(keyLowercased)
        if let columns { wanted.formIntersection(columns.map { $0.lowercased() }) }
        var updatedColumns = try db.columns(in: tableName).map({ $0.name }).filter { wanted.contains($0.lowercased()) }
        if updatedColumns.isEmpty {
            // Update something anyway, so that the change is seen.
            updatedColumns = keyColumns
        }
        let indexes = (updatedColumns + keyColumns).map { container.index(ofColumn: $0) }
        return PersistencePlan(
            key: key, tableName: tableName, container: container, primaryKey: primaryKey,
            sql: PersistencePlan.updateSQL(
                tableName: tableName, updatedColumns: updatedColumns, keyColumns: keyColumns,
                onConflict: conflictResolution),
            parameterIndexes: indexes)
    }

    /// The UPDATE plan and the container, or RecordError.recordNotFound when
    /// the primary key is NULL.
    private func updatePlan(
        _ db: Database, columns: Set<String>?, onConflict conflictResolution: Database.ConflictResolution?)
    throws -> (PersistencePlan, PersistenceContainer)
    {
        let recordType = type(of: self)
        let conflictResolution = conflictResolution ?? recordType.persistenceConflictPolicy.conflictResolutionForUpdate
        let tableName = recordType.databaseTableName
        let key = PersistencePlan.Key(recordType: ObjectIdentifier(recordType), kind: .update(conflictResolution))
        let (plan, container): (PersistencePlan, PersistenceContainer)
        if let columns {
            try db.validateSchemaCache()
            let primaryKey = try db.resolvedPrimaryKey(tableName)
            let encoded = try persistenceContainer()
            plan = try Self.updatePlan(
                db, key: key, tableName: tableName, container: encoded, primaryKey: primaryKey,
                columns: columns, onConflict: conflictResolution)
            container = encoded
        } else {
            (plan, container) = try cachedPlan(
                db, recordType: key.recordType, kind: key.kind, tableName: tableName)
            { key, container, primaryKey in
                try Self.updatePlan(
                    db, key: key, tableName: tableName, container: container, primaryKey: primaryKey,
                    columns: nil, onConflict: conflictResolution)
            }
        }
        if Self.keyDictionary(plan.primaryKey, container) == nil {
            throw type(of: self).recordNotFound(plan.primaryKey, container)
        }
        return (plan, container)
    }

    /// Runs the UPDATE of `columns` (all when nil), and throws
    /// RecordError.recordNotFound if no row was updated.
    func updateWithoutCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?)
    throws -> PersistenceSuccess
    {
        let (plan, container) = try updatePlan(db, columns: columns, onConflict: conflictResolution)
        let statement = try plan.preparedStatement(db)
        try statement.bindPersistenceValues(of: container, at: plan.parameterIndexes)
        // Rows of this statement, not of triggers, unless the table is a
        // view: then the rows its INSTEAD OF triggers changed.
        let (_, changes) = try db.countingChangedRows(inTable: plan.tableName) {
            try statement.executePersistence(of: container, at: plan.parameterIndexes)
        }
        if changes == 0 {
            throw type(of: self).recordNotFound(plan.primaryKey, container)
        }
        return PersistenceSuccess(persistenceContainer: container)
    }

    /// Runs the UPDATE with a RETURNING clause, hands the statement to
    /// `fetch`, and throws RecordError.recordNotFound if no row was updated.
    func updateAndFetchWithoutCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T)
    throws -> (PersistenceSuccess, T)
    {
        let (plan, container) = try updatePlan(db, columns: columns, onConflict: conflictResolution)
        let values = Statement.values(of: container, at: plan.parameterIndexes)
        let statement = try Self.returningStatement(
            db, sql: SQL(sql: plan.sql, arguments: StatementArguments(values)),
            tableName: plan.tableName, selection: selection)
        let totalChangesBefore = db.totalChangesCount
        // A `fetch` that finds no returned row throws: when no row was
        // updated, the error is that the record was not found (a save
        // then inserts it).
        let (returned, changes) = try db.countingChangedRows(inTable: plan.tableName) { () -> Result<T, any Error> in
            let returned = Result { try fetch(statement) }
            // Ends the statement if `fetch` did not, so that SQLite counts
            // its changes.
            statement.reset()
            return returned
        }
        if db.totalChangesCount == totalChangesBefore || changes == 0 {
            throw type(of: self).recordNotFound(plan.primaryKey, container)
        }
        return (PersistenceSuccess(persistenceContainer: container), try returned.get())
    }

    // MARK: - Delete and existence

    /// `DELETE FROM "table" WHERE "id"=?` or `SELECT EXISTS (...)` for the
    /// primary key of the record, or nil if the key is NULL.
    private func keyedStatement(_ db: Database, _ sql: (String, String) -> String) throws -> Statement? {
        let tableName = type(of: self).databaseTableName
        let primaryKey = try db.primaryKey(tableName)
        let container = try persistenceContainer()
        let keyColumns = primaryKey.columns
        let values = keyColumns.map { container.databaseValue(at: $0) }
        if values.allSatisfy({ $0.isNull }) { return nil }
        let statement = try db.cachedStatement(sql: sql(tableName.quotedDatabaseIdentifier, PersistencePlan.whereSQL(keyColumns)))
        try statement.setArguments(StatementArguments(values))
        return statement
    }

    /// Deletes the row of the record, and returns whether there was one.
    func deleteWithoutCallbacks(_ db: Database) throws -> Bool {
        guard let statement = try keyedStatement(db, { "DELETE FROM \($0) WHERE \($1)" }) else {
            return false
        }
        let tableName = type(of: self).databaseTableName
        return try db.countingChangedRows(inTable: tableName) { try statement.execute() }.changes > 0
    }

    /// Whether the table holds a row with the primary key of the record.
    /// False when the key is NULL.
    ///
    /// ```swift
    /// try player.exists(db)   // SELECT EXISTS (SELECT 1 FROM "player" WHERE "id"=?)
    /// ```
    ///
    /// - throws: A ``DatabaseError``, or the error of ``EncodableRecord/encode(to:)``.
    public func exists(_ db: Database) throws -> Bool {
        guard let statement = try keyedStatement(db, { "SELECT EXISTS (SELECT 1 FROM \($0) WHERE \($1))" }) else {
            return false
        }
        return try Bool.fetchOne(statement) ?? false
    }
}
