extension ColumnDefinition {
    /// The column's definition in `CREATE TABLE` or `ALTER TABLE ... ADD
    /// COLUMN`, its values written as SQL literals.
    ///
    /// - parameters:
    ///     - tableName: The table of the column.
    ///     - ownPrimaryKey: The primary key columns of that table (nil for
    ///       its rowid), for a reference to the table itself without
    ///       explicit column.
    func sql(_ db: Database, tableName: String, ownPrimaryKey: () throws -> [String]?) throws -> String {
        var chunks = [name.quotedDatabaseIdentifier]
        if let type {
            chunks.append(type.rawValue)
        }
        if let (conflictResolution, autoincrement) = primaryKey {
            chunks.append("PRIMARY KEY")
            if let conflictResolution {
                chunks.append("ON CONFLICT " + conflictResolution.rawValue)
            }
            if autoincrement {
                chunks.append("AUTOINCREMENT")
            }
        }
        if let resolution = notNullConflictResolution {
            chunks.append(resolution == .abort ? "NOT NULL" : "NOT NULL ON CONFLICT " + resolution.rawValue)
        }
        if case .unique(let resolution) = indexing {
            chunks.append(resolution == .abort ? "UNIQUE" : "UNIQUE ON CONFLICT " + resolution.rawValue)
        }
        for check in checks {
            chunks.append("CHECK (" + (try db.schemaSQL(check.sql)) + ")")
        }
        if let defaultValue {
            chunks.append("DEFAULT " + (try db.schemaSQL(defaultValue.sql)))
        }
        if let collationName {
            chunks.append("COLLATE " + collationName)
        }
        for reference in references {
            let columns: [String]
            if let column = reference.column {
                columns = [column]
            } else if reference.table.lowercased() == tableName.lowercased() {
                columns = try ownPrimaryKey() ?? [Column.rowID.name]
            } else {
                columns = try db.primaryKey(reference.table).columns
            }
            chunks.append("REFERENCES " + reference.table.quotedDatabaseIdentifier
                + "(" + columns.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ") + ")")
            chunks.append(contentsOf: foreignKeyActionsSQL(
                onDelete: reference.deleteAction, onUpdate: reference.updateAction, deferred: reference.isDeferred))
        }
        if let (expression, qualification) = generated {
            chunks.append("GENERATED ALWAYS AS (" + (try db.schemaSQL(expression.sql)) + ")")
            chunks.append(qualification == .stored ? "STORED" : "VIRTUAL")
        }
        return chunks.joined(separator: " ")
    }

    /// The index that ``indexed()`` asks for, named `<table>_on_<column>`;
    /// nil if the column is not indexed, or unique.
    func index(in table: String, options: IndexOptions) -> IndexDefinition? {
        guard case .index = indexing else { return nil }
        return IndexDefinition(name: table + "_on_" + name, table: table, columns: [name], options: options)
    }
}

/// `ON DELETE ...`, `ON UPDATE ...` and `DEFERRABLE INITIALLY DEFERRED`,
/// as needed, for a `REFERENCES` clause.
func foreignKeyActionsSQL(
    onDelete deleteAction: Database.ForeignKeyAction?,
    onUpdate updateAction: Database.ForeignKeyAction?,
    deferred isDeferred: Bool) -> [String]
{
    var chunks: [String] = []
    if let deleteAction {
        chunks.append("ON DELETE " + deleteAction.rawValue)
    }
    if let updateAction {
        chunks.append("ON UPDATE " + updateAction.rawValue)
    }
    if isDeferred {
        chunks.append("DEFERRABLE INITIALLY DEFERRED")
    }
    return chunks
}
