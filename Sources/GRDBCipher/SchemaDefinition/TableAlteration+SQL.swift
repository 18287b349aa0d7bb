extension TableAlteration {
    /// The `ALTER TABLE` statements, and the index of each indexed added
    /// column right after it, separated by "; ".
    func sql(_ db: Database) throws -> String {
        let table = name.quotedDatabaseIdentifier
        var statements: [String] = []
        for change in changes {
            switch change {
            case .add(let column):
                let definition = try column.sql(db, tableName: name, ownPrimaryKey: {
                    try db.primaryKey(name).columnInfos?.map(\.name)
                })
                statements.append("ALTER TABLE \(table) ADD COLUMN \(definition)")
                if let index = column.index(in: name, options: []) {
                    statements.append(try index.sql(db))
                }
            case .addLiteral(let literal):
                statements.append("ALTER TABLE \(table) ADD COLUMN " + (try db.schemaSQL(literal)))
            case .rename(let column, let newName):
                statements.append(
                    "ALTER TABLE \(table) RENAME COLUMN \(column.quotedDatabaseIdentifier) TO \(newName.quotedDatabaseIdentifier)")
            case .drop(let column):
                statements.append("ALTER TABLE \(table) DROP COLUMN \(column.quotedDatabaseIdentifier)")
            }
        }
        return statements.joined(separator: "; ")
    }
}
