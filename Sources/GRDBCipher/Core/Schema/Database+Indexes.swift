extension Database {
    /// The indexes on a table.
    ///
    /// Only indexes on columns are listed: an index on an expression is
    /// left out. Indexes made by `UNIQUE` and `PRIMARY KEY` constraints are
    /// listed (see ``IndexInfo/origin``), but an `INTEGER PRIMARY KEY` has no
    /// index: it is the rowid. To know whether columns identify a row, use
    /// ``table(_:hasUniqueKey:)``.
    ///
    /// When `schemaName` is nil, the schemas are searched in SQLite's order
    /// of resolution (temp, main, then attached databases), and the first
    /// table with this name is described.
    ///
    /// ```swift
    /// for index in try db.indexes(on: "player") {
    ///     print(index.name, index.columns, index.isUnique)
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_index_list>
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, if there is no schema
    ///   named `schemaName`, or if there is no such table (`"no such table:
    ///   ..."`).
    public func indexes(on tableName: String, in schemaName: String? = nil) throws -> [IndexInfo] {
        try validateSchemaCache()
        return try introspect(tableNamed: tableName, in: schemaName, indexesIfExist(on:))
    }

    /// The indexes on a table, or nil if the schema holds no table with
    /// this name.
    func indexesIfExist(on table: DatabaseObjectID) throws -> [IndexInfo]? {
        let key = table.name.lowercased()
        if let lookup = schemaCache.entries[table.schemaID]?.indexes[key] {
            return lookup.value
        }
        let schema = table.schemaID.quotedName
        var indexes: [IndexInfo] = []
        // Columns of index_list: seq, name, unique, origin, partial.
        let indexRows = try Row.fetchAll(self, sql: "PRAGMA \(schema).index_list(\(table.name.quotedDatabaseIdentifier))")
        for indexRow in indexRows {
            let name: String = indexRow[1]
            // Columns of index_info: seqno, cid, name (NULL for the rowid
            // and for expressions, which IndexInfo cannot describe).
            let columnRows = try Row
                .fetchAll(self, sql: "PRAGMA \(schema).index_info(\(name.quotedDatabaseIdentifier))")
                .sorted { ($0[0] as Int) < ($1[0] as Int) }
            let columns = columnRows.compactMap { $0[2] as String? }
            guard columns.count == columnRows.count else { continue }
            indexes.append(IndexInfo(name: name, columns: columns, isUnique: indexRow[2], origin: indexRow[3]))
        }
        // index_list lists nothing, without error, for a missing table.
        if indexes.isEmpty, try !objectExists(table.name, type: .table, in: table.schemaID) {
            schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].indexes[key] = .missing
            return nil
        }
        schemaCache.entries[table.schemaID, default: SchemaCache.Entries()].indexes[key] = .found(indexes)
        return indexes
    }

    /// Whether the columns identify a row: they include the primary key,
    /// or the columns of a unique index. Column names are compared
    /// case-insensitively, in any order.
    ///
    /// ```swift
    /// // CREATE TABLE t (id INTEGER PRIMARY KEY, a, b, c)
    /// // CREATE UNIQUE INDEX t_ab ON t(a, b)
    /// try db.table("t", hasUniqueKey: ["id"])      // true
    /// try db.table("t", hasUniqueKey: ["b", "a"])  // true
    /// try db.table("t", hasUniqueKey: ["a", "c"])  // false
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails. A missing table has
    ///   no unique key: the result is false.
    public func table(_ tableName: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        try columnsForUniqueKey(columns, in: tableName) != nil
    }

    /// The columns of the unique key (primary key or unique index) that
    /// `columns` include, in the order of the key, or nil if they include
    /// none.
    func columnsForUniqueKey(_ columns: some Collection<String>, in tableName: String) throws -> [String]? {
        let wanted = Set(columns.map { $0.lowercased() })
        if wanted.isEmpty { return nil }
        try validateSchemaCache()
        if let primaryKey = try? resolvedPrimaryKey(tableName) {
            if primaryKey.tableHasRowID && wanted == ["rowid"] {
                return ["rowid"]
            }
            if Set(primaryKey.columns.map { $0.lowercased() }).isSubset(of: wanted) {
                return primaryKey.columns
            }
        }
        let schemaIDs = try schemaIdentifiers()
        guard try schemaIDs.contains(where: { try objectExists(tableName, type: .table, in: $0) }) else {
            return nil
        }
        let indexes = try introspect(tableNamed: tableName, in: nil, indexesIfExist(on:))
        let uniqueIndex = indexes.first { index in
            index.isUnique && Set(index.columns.map { $0.lowercased() }).isSubset(of: wanted)
        }
        return uniqueIndex?.columns
    }
}
