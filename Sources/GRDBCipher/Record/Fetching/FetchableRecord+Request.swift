// Fetching records from requests: `Player.fetchAll(db, request)`,
// `request.fetchAll(db)`, and for table records `Player.fetchAll(db)` and
// the fetches by key.

extension FetchableRecord {
    /// A cursor over the records of a request.
    ///
    /// - throws: A ``DatabaseError``, also for a request that prefetches
    ///   associations (`including(all:)`), which cursors do not support.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        try prepared.checkNoSupplementaryFetch()
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// The records of a request.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        guard let supplementaryFetch = prepared.supplementaryFetch else {
            return try fetchAll(prepared.statement, adapter: prepared.adapter)
        }
        let rows = try Row.fetchAll(prepared.statement, adapter: prepared.adapter)
        try supplementaryFetch(db, rows, nil)
        return try rows.map { try Self(row: $0) }
    }

    /// The first record of a request, or nil.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        guard let supplementaryFetch = prepared.supplementaryFetch else {
            return try fetchOne(prepared.statement, adapter: prepared.adapter)
        }
        guard let row = try Row.fetchOne(prepared.statement, adapter: prepared.adapter) else { return nil }
        try supplementaryFetch(db, [row], nil)
        return try Self(row: row)
    }
}

extension FetchableRecord where Self: Hashable {
    /// The distinct records of a request.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        guard let supplementaryFetch = prepared.supplementaryFetch else {
            return try fetchSet(prepared.statement, adapter: prepared.adapter)
        }
        let rows = try Row.fetchAll(prepared.statement, adapter: prepared.adapter)
        try supplementaryFetch(db, rows, nil)
        return try Set(rows.map { try Self(row: $0) })
    }
}

extension FetchRequest where RowDecoder: FetchableRecord {
    /// A cursor over the records of the request.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try RowDecoder.fetchCursor(db, self) }

    /// The records of the request.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }

    /// The first record of the request, or nil.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    /// The distinct records of the request.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(db, self) }
}

extension FetchableRecord where Self: TableRecord {
    /// A cursor over all records of the table.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> { try all().fetchCursor(db) }

    /// All records of the table: `SELECT * FROM "player"`.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchAll(_ db: Database) throws -> [Self] { try all().fetchAll(db) }

    /// The first record of the table, or nil.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchOne(_ db: Database) throws -> Self? { try all().fetchOne(db) }

    /// The record with this primary key, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: 1)   // SELECT * FROM "player" WHERE "id" = ?
    /// ```
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchOne<Key: DatabaseValueConvertible>(_ db: Database, key: Key) throws -> Self? {
        let value = key.databaseValue
        if value.isNull { return nil }
        // The SQL and statement are compiled once per record type and
        // connection (see KeyLookupPlan).
        if !keyValueDependsOnStrategies(Key.self),
           let plan = try db.keyLookupPlan(
            recordType: ObjectIdentifier(Self.self), tableName: databaseTableName, selection: databaseSelection,
            sql: { try all().filter(key: key).relation.selectSQL(db, forSingleResult: true) })
        {
            let statement = plan.statement
            guard try statement.stepOnce(binding: value) else { return nil }
            statement.iterationCount += 1
            defer {
                statement.iterationCount -= 1
                statement.reset()
            }
            return try Self(row: plan.row)
        }
        return try filter(key: key).fetchOne(db)
    }

    /// The records with these primary keys, in no particular order.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchAll<Keys: Collection>(_ db: Database, keys: Keys) throws -> [Self]
    where Keys.Element: DatabaseValueConvertible
    {
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchAll(db)
    }

    /// A cursor over the records with these primary keys.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor<Keys: Collection>(_ db: Database, keys: Keys) throws -> RecordCursor<Self>
    where Keys.Element: DatabaseValueConvertible
    {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The record with this primary key.
    ///
    /// - throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if
    ///   there is none, or a ``DatabaseError``.
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        guard let record = try fetchOne(db, key: key) else { throw recordNotFound(db, key: key) }
        return record
    }

    /// The record with this unique key, or nil.
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]?) throws -> Self? {
        guard let key else { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// The records with these unique keys.
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchAll(db)
    }

    /// A cursor over the records with these unique keys.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws
        -> RecordCursor<Self>
    {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The record with this unique key.
    ///
    /// - throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if
    ///   there is none, or a ``DatabaseError``.
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        guard let record = try fetchOne(db, key: key) else { throw recordNotFound(key: key) }
        return record
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// All distinct records of the table.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchSet(_ db: Database) throws -> Set<Self> { try all().fetchSet(db) }

    /// The records with these primary keys.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchSet<Keys: Collection>(_ db: Database, keys: Keys) throws -> Set<Self>
    where Keys.Element: DatabaseValueConvertible
    {
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchSet(db)
    }

    /// The records with these unique keys.
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self> {
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchSet(db)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// The record with this id, or nil.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? { try fetchOne(db, key: id) }

    /// The records with these ids.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try fetchAll(db, keys: ids)
    }

    /// A cursor over the records with these ids.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> {
        try fetchCursor(db, keys: ids)
    }

    /// The record with this id.
    ///
    /// - throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if
    ///   there is none, or a ``DatabaseError``.
    public static func find(_ db: Database, id: ID) throws -> Self { try find(db, key: id) }
}

extension FetchableRecord where Self: TableRecord & Hashable & Identifiable, ID: DatabaseValueConvertible {
    /// The records with these ids.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> {
        try fetchSet(db, keys: ids)
    }
}
