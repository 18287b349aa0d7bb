// The statements of `create(table:)`: `CREATE TABLE`, then the indexes of
// the indexed columns and foreign keys, joined with "; " as one call to
// `execute(sql:)`.
//
// A foreign key without explicit columns refers to the primary key of its
// table, looked up in the database. The table being created is not there
// yet: its own primary key ("own key") comes from the definition.

/// A primary key column known by name and declared type.
struct KeyColumn {
    var name: String
    var type: Database.ColumnType?
}

/// The primary key that a foreign key refers to.
struct ReferencedKey {
    var table: String
    /// Nil when the key is the hidden rowid.
    var columns: [KeyColumn]?

    /// The primary key of an existing table.
    static func lookUp(_ db: Database, table: String) throws -> ReferencedKey {
        let primaryKey = try db.primaryKey(table)
        return ReferencedKey(
            table: table,
            columns: primaryKey.columnInfos?.map { KeyColumn(name: $0.name, type: $0.columnType) })
    }
}

/// What a `belongsTo` adds to the table.
private struct BelongsToParts {
    var columns: [ColumnDefinition]
    /// The table constraint of a composite key.
    var constraint: TableForeignKey?
    /// The index of a composite key (a single column is indexed by its
    /// column definition).
    var index: IndexDefinition?
}

extension TableDefinition {
    /// The SQL of the `CREATE TABLE` statement and of the indexes that
    /// follow, separated by "; ".
    func sql(_ db: Database) throws -> String {
        let indexOptions: IndexOptions = options.contains(.ifNotExists) ? .ifNotExists : []
        let ownKey = ReferencedKey(table: name, columns: try ownPrimaryKeyColumns(db))

        var columnSQL: [String] = []
        var foreignKeys: [TableForeignKey] = []
        var indexes: [IndexDefinition] = []
        var columns: [ColumnDefinition] = []
        let ownKeyNames = { ownKey.columns?.map(\.name) }
        for item in items {
            switch item {
            case .column(let column):
                columns.append(column)
                columnSQL.append(try column.sql(db, tableName: name, ownPrimaryKey: ownKeyNames))
            case .literalColumn(let literal):
                columnSQL.append(try db.schemaSQL(literal))
            case .belongsTo(let foreignKey):
                let parts = try self.parts(of: foreignKey, db, ownKey: ownKey, indexOptions: indexOptions)
                for column in parts.columns {
                    columns.append(column)
                    columnSQL.append(try column.sql(db, tableName: name, ownPrimaryKey: ownKeyNames))
                }
                if let constraint = parts.constraint { foreignKeys.append(constraint) }
                if let index = parts.index { indexes.append(index) }
            case .foreignKey(let foreignKey):
                foreignKeys.append(foreignKey)
            }
        }
        indexes += columns.compactMap { $0.index(in: name, options: indexOptions) }

        var definitions = columnSQL
        if let primaryKeyConstraint {
            definitions.append(try keySQL("PRIMARY KEY", primaryKeyConstraint, db, ownKey: ownKey))
        }
        for constraint in uniqueKeyConstraints {
            definitions.append(try keySQL("UNIQUE", constraint, db, ownKey: ownKey))
        }
        for foreignKey in foreignKeys {
            definitions.append(try foreignKeySQL(foreignKey, db, ownKey: ownKey))
        }
        for check in checkConstraints {
            definitions.append("CHECK (" + (try db.schemaSQL(check.sql)) + ")")
        }
        for literal in literalConstraints {
            definitions.append(try db.schemaSQL(literal))
        }

        var chunks = ["CREATE"]
        if options.contains(.temporary) { chunks.append("TEMPORARY") }
        chunks.append("TABLE")
        if options.contains(.ifNotExists) { chunks.append("IF NOT EXISTS") }
        chunks.append(name.quotedDatabaseIdentifier)
        chunks.append("(" + definitions.joined(separator: ", ") + ")")
        var tableOptions: [String] = []
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if !tableOptions.isEmpty { chunks.append(tableOptions.joined(separator: ", ")) }

        let statements = [chunks.joined(separator: " ")] + (try indexes.map { try $0.sql(db) })
        return statements.joined(separator: "; ")
    }

    /// The primary key of the table being defined: the columns of the
    /// `PRIMARY KEY` constraint, or else the first primary key column; nil
    /// for a table keyed by its rowid.
    private func ownPrimaryKeyColumns(_ db: Database) throws -> [KeyColumn]? {
        if let primaryKeyConstraint {
            return try primaryKeyConstraint.members.flatMap { member -> [KeyColumn] in
                switch member {
                case .name(let name):
                    return [KeyColumn(name: name, type: nil)]
                case .column(let column):
                    return [KeyColumn(name: column.name, type: column.type)]
                case .belongsTo(let foreignKey):
                    // The own key is not known yet: a self-reference inside
                    // the key is looked up in the database.
                    return try parts(of: foreignKey, db, ownKey: nil, indexOptions: [])
                        .columns.map { KeyColumn(name: $0.name, type: $0.type) }
                }
            }
        }
        for case .column(let column) in items where column.primaryKey != nil {
            return [KeyColumn(name: column.name, type: column.type)]
        }
        return nil
    }

    /// The columns, constraint and index of a `belongsTo`.
    private func parts(
        of foreignKey: ForeignKeyDefinition,
        _ db: Database,
        ownKey: ReferencedKey?,
        indexOptions: IndexOptions) throws -> BelongsToParts
    {
        let referencedKey: ReferencedKey
        if let ownKey, refersToOwnTable(foreignKey) {
            referencedKey = ownKey
        } else {
            referencedKey = try foreignKey.referencedKey(db)
        }

        func configure(_ column: ColumnDefinition) -> ColumnDefinition {
            if let resolution = foreignKey.notNullConflictResolution {
                column.notNull(onConflict: resolution)
            }
            switch foreignKey.indexing {
            case nil: break
            case .index: column.indexed()
            case .unique: column.unique()
            }
            return column
        }

        guard let keyColumns = referencedKey.columns else {
            // The rowid: one integer column, that refers to the key that
            // the database reports for the table.
            let column = ColumnDefinition(name: foreignKey.name + "Id", type: .integer).references(
                referencedKey.table,
                onDelete: foreignKey.deleteAction,
                onUpdate: foreignKey.updateAction,
                deferred: foreignKey.isDeferred)
            return BelongsToParts(columns: [configure(column)])
        }
        let names = keyColumns.map { foreignKey.name + $0.name.uppercasingFirstCharacter }
        if keyColumns.count == 1 {
            let column = ColumnDefinition(name: names[0], type: keyColumns[0].type).references(
                referencedKey.table,
                column: keyColumns[0].name,
                onDelete: foreignKey.deleteAction,
                onUpdate: foreignKey.updateAction,
                deferred: foreignKey.isDeferred)
            return BelongsToParts(columns: [configure(column)])
        }

        // A composite key: plain columns, a table constraint, and an index
        // named as create(indexOn:columns:) names it.
        let columns = zip(names, keyColumns).map { name, keyColumn in
            let column = ColumnDefinition(name: name, type: keyColumn.type)
            if let resolution = foreignKey.notNullConflictResolution {
                column.notNull(onConflict: resolution)
            }
            return column
        }
        let constraint = TableForeignKey(
            columns: names,
            table: referencedKey.table,
            destinationColumns: nil,
            deleteAction: foreignKey.deleteAction,
            updateAction: foreignKey.updateAction,
            isDeferred: foreignKey.isDeferred)
        let index: IndexDefinition? = foreignKey.indexing.map { indexing in
            IndexDefinition(
                name: Database.defaultIndexName(on: name, columns: names),
                table: name,
                columns: names,
                options: indexing == .unique ? indexOptions.union(.unique) : indexOptions)
        }
        return BelongsToParts(columns: columns, constraint: constraint, index: index)
    }

    /// Whether a `belongsTo` refers to the table being defined: by its
    /// table name, or else by its name, singular or plural.
    private func refersToOwnTable(_ foreignKey: ForeignKeyDefinition) -> Bool {
        if let table = foreignKey.table {
            return table.lowercased() == name.lowercased()
        }
        return foreignKey.name.singularized.lowercased() == name.singularized.lowercased()
    }

    /// `PRIMARY KEY ("a", "b")` or `UNIQUE ("a", "b")`, and its conflict
    /// resolution.
    private func keySQL(_ keyword: String, _ constraint: KeyConstraint, _ db: Database, ownKey: ReferencedKey) throws -> String {
        let names = try constraint.members.flatMap { member -> [String] in
            switch member {
            case .name(let name):
                return [name]
            case .column(let column):
                return [column.name]
            case .belongsTo(let foreignKey):
                return try parts(of: foreignKey, db, ownKey: ownKey, indexOptions: []).columns.map(\.name)
            }
        }
        var sql = keyword + " (" + names.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ") + ")"
        if let resolution = constraint.conflictResolution {
            sql += " ON CONFLICT " + resolution.rawValue
        }
        return sql
    }

    /// `FOREIGN KEY ("a", "b") REFERENCES "t"("c", "d")` and its actions.
    private func foreignKeySQL(_ foreignKey: TableForeignKey, _ db: Database, ownKey: ReferencedKey) throws -> String {
        let destinationColumns: [String]
        if let columns = foreignKey.destinationColumns {
            destinationColumns = columns
        } else if foreignKey.table.lowercased() == name.lowercased() {
            destinationColumns = ownKey.columns?.map(\.name) ?? [Column.rowID.name]
        } else {
            destinationColumns = try db.primaryKey(foreignKey.table).columns
        }
        let chunks = [
            "FOREIGN KEY (" + foreignKey.columns.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ") + ")",
            "REFERENCES " + foreignKey.table.quotedDatabaseIdentifier
                + "(" + destinationColumns.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ") + ")",
        ] + foreignKeyActionsSQL(
            onDelete: foreignKey.deleteAction, onUpdate: foreignKey.updateAction, deferred: foreignKey.isDeferred)
        return chunks.joined(separator: " ")
    }
}

extension ForeignKeyDefinition {
    /// The primary key of the referenced table: `table`, or else the table
    /// named `name`, or else its plural.
    ///
    /// - throws: A ``DatabaseError`` "no such table" if there is none.
    func referencedKey(_ db: Database) throws -> ReferencedKey {
        if let table {
            return try ReferencedKey.lookUp(db, table: table)
        }
        if try db.tableExists(name) {
            return try ReferencedKey.lookUp(db, table: name)
        }
        let plural = name.pluralized
        if try db.tableExists(plural) {
            return try ReferencedKey.lookUp(db, table: plural)
        }
        throw DatabaseError.noSuchTable(name)
    }
}

extension BelongsToParts {
    init(columns: [ColumnDefinition]) {
        self.init(columns: columns, constraint: nil, index: nil)
    }
}
