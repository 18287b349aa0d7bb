extension Database {
    /// The columns of a table or a view, in the order of the table.
    ///
    /// The result holds the columns that `SELECT *` returns, generated
    /// columns included; the hidden columns of virtual tables are left out.
    ///
    /// When `schemaName` is nil, the schemas are searched in SQLite's order
    /// of resolution (temp, main, then attached databases), and the first
    /// table or view with this name is described.
    ///
    /// ```swift
    /// let columns = try db.columns(in: "player")
    /// for column in columns {
    ///     print(column.name, column.type)
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_table_xinfo>
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, if there is no schema
    ///   named `schemaName`, or if there is no such table or view
    ///   (`"no such table: ..."`).
    public func columns(in tableName: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        try validateSchemaCache()
        return try introspect(tableNamed: tableName, in: schemaName, columnsIfExist(in:))
    }

    /// The columns of a table or a view, or nil if the schema holds no
    /// table or view with this name.
    func columnsIfExist(in table: DatabaseObjectID) throws -> [ColumnInfo]? {
        let key = table.name.lowercased()
        if let lookup = schemaCache.entries[table.schemaID]?.columns[key] {
            return lookup.value
        }
        // table_xinfo, unlike table_info, lists generated columns.
        let allColumns = try Row
            .fetchAll(self, sql: "PRAGMA \(table.schemaID.quotedName).table_xinfo(\(table.name.quotedDatabaseIdentifier))")
            .map(ColumnInfo.init(row:))
            .sorted { $0.cid < $1.cid }
        guard !allColumns.isEmpty else {
            schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].columns[key] = .missing
            return nil
        }
        // Hidden columns of virtual tables are not in `SELECT *`.
        let columns = allColumns.filter { $0.hidden != 1 }
        schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].columns[key] = .found(columns)
        return columns
    }
}
