extension Database {
    /// The foreign keys of a table, in the order of `PRAGMA foreign_key_list`.
    ///
    /// A foreign key that refers to the primary key of its destination
    /// table without naming its columns (`REFERENCES team`) is described
    /// with the columns of that primary key.
    ///
    /// When `schemaName` is nil, the schemas are searched in SQLite's order
    /// of resolution (temp, main, then attached databases), and the first
    /// table with this name is described.
    ///
    /// ```swift
    /// for foreignKey in try db.foreignKeys(on: "player") {
    ///     print(foreignKey.destinationTable, foreignKey.mapping)
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, if there is no schema
    ///   named `schemaName`, if there is no such table (`"no such table:
    ///   ..."`), or if a foreign key refers to the primary key of a missing
    ///   table.
    public func foreignKeys(on tableName: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        try validateSchemaCache()
        return try introspect(tableNamed: tableName, in: schemaName, foreignKeysIfExist(on:))
    }

    /// The foreign keys of a table, or nil if the schema holds no table
    /// with this name.
    func foreignKeysIfExist(on table: DatabaseObjectID) throws -> [ForeignKeyInfo]? {
        let key = table.name.lowercased()
        if let lookup = schemaCache.entries[table.schemaID]?.foreignKeys[key] {
            return lookup.value
        }
        // One row per column: id, seq, table, from, to (NULL when the key
        // refers to the primary key), on_update, on_delete, match. The
        // rows of one key are adjacent.
        typealias Pending = (id: Int, destinationTable: String, columns: [(seq: Int, origin: String, destination: String?)])
        var pendingKeys: [Pending] = []
        let rows = try Row.fetchAll(
            self, sql: "PRAGMA \(table.schemaID.quotedName).foreign_key_list(\(table.name.quotedDatabaseIdentifier))")
        for row in rows {
            let id: Int = row[0]
            let column = (seq: row[1] as Int, origin: row[3] as String, destination: row[4] as String?)
            if let last = pendingKeys.indices.last, pendingKeys[last].id == id {
                pendingKeys[last].columns.append(column)
            } else {
                pendingKeys.append((id: id, destinationTable: row[2], columns: [column]))
            }
        }
        // foreign_key_list lists nothing, without error, for a missing table.
        if pendingKeys.isEmpty, try !objectExists(table.name, type: .table, in: table.schemaID) {
            schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].foreignKeys[key] = .missing
            return nil
        }
        let foreignKeys = try pendingKeys.map { pending -> ForeignKeyInfo in
            let columns = pending.columns.sorted { $0.seq < $1.seq }
            let mapping: [(origin: String, destination: String)]
            if columns.contains(where: { $0.destination == nil }) {
                let destinationColumns = try resolvedPrimaryKey(pending.destinationTable).columns
                mapping = zip(columns, destinationColumns).map { (origin: $0.origin, destination: $1) }
            } else {
                mapping = columns.map { (origin: $0.origin, destination: $0.destination!) }
            }
            return ForeignKeyInfo(id: pending.id, destinationTable: pending.destinationTable, mapping: mapping)
        }
        schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].foreignKeys[key] = .found(foreignKeys)
        return foreignKeys
    }

    /// Throws the first foreign key violation found in the database, as a
    /// ``DatabaseError`` with the extended code `SQLITE_CONSTRAINT_FOREIGNKEY`
    /// (see ``ForeignKeyViolation/databaseError(_:)``).
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
    ///     // ... changes that break foreign keys for a while ...
    ///     try db.checkForeignKeys()
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>
    ///
    /// - throws: The violation, or a ``DatabaseError`` if SQLite fails.
    public func checkForeignKeys() throws {
        try checkForeignKeys(sql: "PRAGMA foreign_key_check")
    }

    /// Throws the first foreign key violation found in a table, as a
    /// ``DatabaseError`` with the extended code `SQLITE_CONSTRAINT_FOREIGNKEY`.
    ///
    /// When `schemaName` is nil, the schemas are searched in SQLite's order
    /// of resolution (temp, main, then attached databases), and the first
    /// table with this name is checked.
    ///
    /// ```swift
    /// try db.checkForeignKeys(in: "player")
    /// ```
    ///
    /// - throws: The violation, or a ``DatabaseError`` if SQLite fails, if
    ///   there is no schema named `schemaName`, or if there is no such table.
    public func checkForeignKeys(in tableName: String, in schemaName: String? = nil) throws {
        try validateSchemaCache()
        let table = try introspect(tableNamed: tableName, in: schemaName) { table in
            try objectExists(table.name, type: .table, in: table.schemaID) ? table : nil
        }
        try checkForeignKeys(
            sql: "PRAGMA \(table.schemaID.pragmaName).foreign_key_check(\(table.name.quotedDatabaseIdentifier))")
    }

    private func checkForeignKeys(sql: String) throws {
        if let row = try Row.fetchOne(self, sql: sql) {
            throw ForeignKeyViolation(row: row).databaseError(self)
        }
    }
}
