extension Database {
    /// The primary key of a table.
    ///
    /// Every table has one: a table without an explicit primary key is keyed
    /// by its hidden `rowid` column. A single-column primary key whose
    /// declared type is `INTEGER` is an alias of the rowid
    /// (``PrimaryKeyInfo/rowIDColumn``), except in a `WITHOUT ROWID` table.
    ///
    /// When `schemaName` is nil, the schemas are searched in SQLite's order
    /// of resolution (temp, main, then attached databases), and the first
    /// table with this name is described.
    ///
    /// ```swift
    /// let primaryKey = try db.primaryKey("player")
    /// print(primaryKey.columns) // ["id"]
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, if there is no schema
    ///   named `schemaName`, or if there is no such table (`"no such table:
    ///   ..."`, or `"database view ... has no primary key"` for a view).
    public func primaryKey(_ tableName: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        try validateSchemaCache()
        return try resolvedPrimaryKey(tableName, in: schemaName)
    }

    /// ``primaryKey(_:in:)`` on a schema cache already checked.
    func resolvedPrimaryKey(_ tableName: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        let schemaIDs = try schemaIdentifiers(named: schemaName)
        for schemaID in schemaIDs {
            if let primaryKey = try primaryKeyIfExists(of: DatabaseObjectID(name: tableName, schemaID: schemaID)) {
                return primaryKey
            }
        }
        // As GRDB: a view gets its own message, unless a schema was named.
        if schemaName == nil, try schemaIDs.contains(where: { try objectExists(tableName, type: .view, in: $0) }) {
            throw DatabaseError(message: "database view \(tableName) has no primary key")
        }
        throw DatabaseError.noSuchTable(tableName)
    }

    /// The primary key of a table, or nil if the schema holds no table
    /// with this name.
    func primaryKeyIfExists(of table: DatabaseObjectID) throws -> PrimaryKeyInfo? {
        let key = table.name.lowercased()
        if let lookup = schemaCache.entries[table.schemaID]?.primaryKeys[key] {
            return lookup.value
        }
        if let primaryKey = try primaryKeyFromSchemaSource(ofView: table) {
            schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].primaryKeys[key] = .found(primaryKey)
            return primaryKey
        }
        guard try objectExists(table.name, type: .table, in: table.schemaID),
              let columns = try columnsIfExist(in: table)
        else {
            schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].primaryKeys[key] = .missing
            return nil
        }
        let keyColumns = columns
            .filter { $0.primaryKeyIndex > 0 }
            .sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        let primaryKey: PrimaryKeyInfo
        if keyColumns.isEmpty {
            // Only a rowid table can lack a primary key.
            primaryKey = .hiddenRowID
        } else {
            let hasRowID = try tableHasRowID(table)
            // As GRDB, and SQLite but for `INTEGER PRIMARY KEY DESC`: a
            // single column declared `INTEGER` aliases the rowid.
            if hasRowID && keyColumns.count == 1 && keyColumns[0].type.uppercased() == "INTEGER" {
                primaryKey = .rowIDAlias(keyColumns[0])
            } else {
                primaryKey = .columns(keyColumns, tableHasRowID: hasRowID)
            }
        }
        schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].primaryKeys[key] = .found(primaryKey)
        return primaryKey
    }

    /// Whether an existing table has a rowid (is not `WITHOUT ROWID`).
    private func tableHasRowID(_ table: DatabaseObjectID) throws -> Bool {
        let row = try Row.fetchOne(
            self, sql: "PRAGMA \(table.schemaID.quotedName).table_list(\(table.name.quotedDatabaseIdentifier))")
        // Columns: schema, name, type, ncol, wr (WITHOUT ROWID), strict.
        guard let row else { return true }
        return (row["wr"] as Bool) == false
    }

    /// Whether `column` is the rowid of the table: its `INTEGER PRIMARY
    /// KEY` column, or `rowid` in a table that has one.
    func columnIsRowID(_ column: String, of tableName: String) throws -> Bool {
        let primaryKey = try primaryKey(tableName)
        return primaryKey.rowIDColumn == column || (primaryKey.tableHasRowID && column.uppercased() == "ROWID")
    }

    /// The columns to test for NULL to know whether a row exists in a
    /// joined table: the rowid (by its alias if it has one), or the primary
    /// key of a `WITHOUT ROWID` table, or all columns of a view. Never empty.
    func existenceCheckColumns(in tableName: String) throws -> [String] {
        do {
            let primaryKey = try primaryKey(tableName)
            if let rowIDColumn = primaryKey.rowIDColumn { return [rowIDColumn] }
            if primaryKey.tableHasRowID { return ["rowid"] }
            return primaryKey.columns
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            guard try viewExists(tableName) else { throw error }
            return try columns(in: tableName).map({ $0.name })
        }
    }
}
