// Detecting that migrations changed since they were applied.

extension DatabaseMigrator {
    /// Whether the migrations changed since the database applied them: the
    /// database applied a migration this migrator does not know (removed or
    /// renamed), or its schema differs from the one the registered
    /// migrations create, up to the last one it applied.
    ///
    /// The schema is the content of `sqlite_master` (type, name, table and
    /// SQL of every table, index, view and trigger), except SQLite's and
    /// GRDB's own tables. The expected schema comes from running the
    /// migrations on an empty temporary file, as in GRDB, but encrypted with
    /// a random key and removed afterwards: no plaintext copy of the schema
    /// or of rows the migrations insert is ever written to disk. It is
    /// configured as `db`, with its own key: preparation functions run
    /// (`sqlite3_file_control` too), and migrations see the same foreign
    /// key setting.
    ///
    /// This is what ``eraseDatabaseOnSchemaChange`` uses. To erase by hand:
    ///
    /// ```swift
    /// #if DEBUG
    /// if try dbQueue.read(migrator.hasSchemaChanges) {
    ///     try dbQueue.erase()
    /// }
    /// #endif
    /// try migrator.migrate(dbQueue)
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, or the error of a
    ///   preparation or a migration that fails on the temporary database.
    public func hasSchemaChanges(_ db: Database) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        if !applied.isSubset(of: Set(migrations)) {
            return true
        }
        guard let lastApplied = registeredMigrations.lastIndex(where: { applied.contains($0.identifier) }) else {
            return false
        }
        let scratch = try SchemaScratchDatabase(configuredAs: db)
        defer { scratch.remove() }
        let expected = try scratch.dbQueue.writeWithoutTransaction { scratchDB in
            try runMigrations(scratchDB, upTo: lastApplied)
            return try SchemaObject.userObjects(scratchDB)
        }
        return try SchemaObject.userObjects(db) != expected
    }
}

/// A row of `sqlite_master`, as `hasSchemaChanges` compares them.
private struct SchemaObject: Hashable {
    var type: String
    var name: String
    var tableName: String
    var sql: String?

    /// The objects of the main schema, except SQLite's and GRDB's own.
    static func userObjects(_ db: Database) throws -> Set<SchemaObject> {
        let rows = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM main.sqlite_master")
        var objects = Set<SchemaObject>()
        for row in rows {
            let object = SchemaObject(type: row[0], name: row[1], tableName: row[2], sql: row[3])
            if Database.isSQLiteInternalTable(object.name) || Database.isGRDBInternalTable(object.name) { continue }
            objects.insert(object)
        }
        return objects
    }
}
