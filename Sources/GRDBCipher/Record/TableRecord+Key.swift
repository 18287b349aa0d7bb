// Existence checks and deletions by key, on a record's table.

extension TableRecord {
    /// Whether a row has this primary key.
    ///
    /// - throws: A ``DatabaseError``.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Whether a row has this unique key.
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Deletes the row with this primary key; returns whether there was one.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // No row has a NULL key: nothing runs, as in GRDB.
        if key.databaseValue.isNull { return false }
        return try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with these primary keys; returns how many.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public static func deleteAll<Keys: Collection>(_ db: Database, keys: Keys) throws -> Int
    where Keys.Element: DatabaseValueConvertible
    {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the row with this unique key; returns whether there was one.
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with these unique keys; returns how many.
    ///
    /// - throws: A ``DatabaseError``, also when the columns are no unique key.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// Whether a row has this id.
    ///
    /// - throws: A ``DatabaseError``.
    public static func exists(_ db: Database, id: ID) throws -> Bool {
        // No row has a NULL id: nothing runs, as in GRDB.
        if id.databaseValue.isNull { return false }
        return try exists(db, key: id)
    }

    /// Deletes the row with this id; returns whether there was one.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool {
        // Unlike `deleteOne(_:key:)`, a NULL id runs `WHERE "id" = NULL`, as
        // in GRDB.
        try deleteAll(db, ids: [id]) > 0
    }

    /// Deletes the rows with these ids; returns how many.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int {
        try deleteAll(db, keys: ids)
    }
}
