extension Database {
    /// The type of an object in a schema table (the `type` column of
    /// `sqlite_master`).
    enum SchemaObjectType: String {
        case table
        case view
        case trigger
        case index
    }

    // MARK: - Schemas

    /// The schemas of the connection, in SQLite's order of name resolution:
    /// temp (when the connection has opened it), main, then the attached
    /// databases, in the order of `PRAGMA database_list`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_naming.html>
    func schemaIdentifiers() throws -> [DatabaseSchemaID] {
        if let schemaIDs = schemaCache.schemaIDs {
            return schemaIDs
        }
        var schemaIDs = try Row.fetchAll(self, sql: "PRAGMA database_list").map { row in
            DatabaseSchemaID(name: row[1])
        }
        // Temporary objects hide the objects of the same name in main.
        if let tempIndex = schemaIDs.firstIndex(of: .temp) {
            schemaIDs.insert(schemaIDs.remove(at: tempIndex), at: 0)
        }
        for schemaID in schemaIDs where schemaID != .main && schemaID != .temp {
            schemaCache.versions[schemaID] = try fetchSchemaVersion(of: schemaID)
        }
        schemaCache.schemaIDs = schemaIDs
        return schemaIDs
    }

    /// The schema named `schemaName`, compared case-insensitively.
    ///
    /// - throws: A ``DatabaseError`` if there is no such schema.
    func schemaIdentifier(named schemaName: String) throws -> DatabaseSchemaID {
        guard let schemaID = try schemaIdentifiers().first(where: { $0.isNamed(schemaName) }) else {
            throw DatabaseError.noSuchSchema(schemaName)
        }
        return schemaID
    }

    /// The schemas to search for `schemaName`: the one named, or all of
    /// them in resolution order when nil.
    func schemaIdentifiers(named schemaName: String?) throws -> [DatabaseSchemaID] {
        if let schemaName {
            return try [schemaIdentifier(named: schemaName)]
        }
        return try schemaIdentifiers()
    }

    /// The first result of `lookup` for the table named `tableName` in the
    /// schema named `schemaName`, or in the first schema where it is not
    /// nil when `schemaName` is nil.
    ///
    /// - throws: A ``DatabaseError`` if there is no such schema, or no such
    ///   table (`lookup` returned nil everywhere).
    func introspect<T>(
        tableNamed tableName: String,
        in schemaName: String?,
        _ lookup: (DatabaseObjectID) throws -> T?) throws -> T
    {
        for schemaID in try schemaIdentifiers(named: schemaName) {
            if let result = try lookup(DatabaseObjectID(name: tableName, schemaID: schemaID)) {
                return result
            }
        }
        throw DatabaseError.noSuchTable(tableName)
    }

    // MARK: - Schema objects

    /// The objects of a schema table, by type and lowercased name.
    private func schemaObjects(in schemaID: DatabaseSchemaID) throws -> [SchemaCache.ObjectKey: String] {
        if let objects = schemaCache.entries[schemaID]?.objects {
            return objects
        }
        var objects: [SchemaCache.ObjectKey: String] = [:]
        let rows = try Row.fetchCursor(self, sql: "SELECT type, name FROM \(schemaID.quotedName).sqlite_master")
        while let row = try rows.next() {
            let name: String = row[1]
            objects[SchemaCache.ObjectKey(type: row[0], lowercasedName: name.lowercased())] = name
        }
        schemaCache.entries[schemaID, default: SchemaCache.Entries()].objects = objects
        return objects
    }

    /// The name of the object as written in the schema, or nil if the
    /// schema has no such object.
    func canonicalName(
        of name: String, type: SchemaObjectType, in schemaID: DatabaseSchemaID) throws -> String?
    {
        try schemaObjects(in: schemaID)[SchemaCache.ObjectKey(type: type.rawValue, lowercasedName: name.lowercased())]
    }

    /// Whether the schema holds an object of this type and name, compared
    /// case-insensitively.
    func objectExists(_ name: String, type: SchemaObjectType, in schemaID: DatabaseSchemaID) throws -> Bool {
        try canonicalName(of: name, type: type, in: schemaID) != nil
    }

    /// Whether the schema named `schemaName`, or any schema when nil, holds
    /// an object of this type and name.
    private func objectExists(_ name: String, type: SchemaObjectType, in schemaName: String?) throws -> Bool {
        try validateSchemaCache()
        return try schemaIdentifiers(named: schemaName).contains { schemaID in
            try objectExists(name, type: type, in: schemaID)
        }
    }

    /// The name of the table as written in the schema, searched in
    /// resolution order (`"Player"` for `"player"`), or nil if there is
    /// no such table. The schema tables (`sqlite_master`) count as tables.
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    func canonicalTableName(_ tableName: String) throws -> String? {
        try validateSchemaCache()
        for schemaID in try schemaIdentifiers() {
            if let name = try canonicalName(of: tableName, type: .table, in: schemaID) {
                return name
            }
            let schemaTableName = schemaID == .temp ? "sqlite_temp_master" : "sqlite_master"
            if tableName.lowercased() == schemaTableName {
                return schemaTableName
            }
        }
        return nil
    }

    // MARK: - Public API

    /// Whether a table exists, in the schema named `schemaName` (`"main"`,
    /// `"temp"`, or the name of an attached database), or in any schema
    /// when `schemaName` is nil. Names are compared case-insensitively.
    ///
    /// ```swift
    /// if try db.tableExists("player") { ... }
    /// if try db.tableExists("player", in: "archive") { ... }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, or if there is no
    ///   schema named `schemaName`.
    public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists(name, type: .table, in: schemaName)
    }

    /// Whether a view exists, in the schema named `schemaName`, or in any
    /// schema when `schemaName` is nil. Names are compared case-insensitively.
    ///
    /// ```swift
    /// if try db.viewExists("bestPlayers") { ... }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, or if there is no
    ///   schema named `schemaName`.
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists(name, type: .view, in: schemaName)
    }

    /// Whether a trigger exists, in the schema named `schemaName`, or in any
    /// schema when `schemaName` is nil. Names are compared case-insensitively.
    ///
    /// ```swift
    /// if try db.triggerExists("player_update") { ... }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, or if there is no
    ///   schema named `schemaName`.
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists(name, type: .trigger, in: schemaName)
    }

    /// Whether a table is internal to SQLite: its name begins with
    /// `sqlite_` or `pragma_`.
    ///
    /// ```swift
    /// Database.isSQLiteInternalTable("sqlite_sequence") // true
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#internal_schema_objects>
    public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
        tableName.hasPrefix("sqlite_") || tableName.hasPrefix("pragma_")
    }

    /// Whether a table is internal to GRDB: its name begins with `grdb_`
    /// (`grdb_migrations`).
    ///
    /// ```swift
    /// Database.isGRDBInternalTable("grdb_migrations") // true
    /// ```
    public static func isGRDBInternalTable(_ tableName: String) -> Bool {
        tableName.hasPrefix("grdb_")
    }
}
