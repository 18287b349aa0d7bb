/// A `CREATE INDEX` statement: made by ``Database/create(index:on:columns:options:condition:)``
/// and its variants, and by the indexed columns and foreign keys of a
/// table definition.
struct IndexDefinition {
    var name: String
    var table: String
    var expressions: [SQLExpression]
    var options: IndexOptions
    /// The `WHERE` clause of a partial index.
    var condition: SQLExpression?

    /// An index on columns.
    init(name: String, table: String, columns: [String], options: IndexOptions, condition: SQLExpression? = nil) {
        self.init(name: name, table: table, expressions: columns.map { .column($0) }, options: options, condition: condition)
    }

    init(name: String, table: String, expressions: [SQLExpression], options: IndexOptions, condition: SQLExpression?) {
        self.name = name
        self.table = table
        self.expressions = expressions
        self.options = options
        self.condition = condition
    }

    /// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "name" ON "table"(expressions) [WHERE condition]`,
    /// its values written as SQL literals.
    func sql(_ db: Database) throws -> String {
        var literal = SQL(sql: options.contains(.unique) ? "CREATE UNIQUE INDEX " : "CREATE INDEX ")
        if options.contains(.ifNotExists) {
            literal.append(sql: "IF NOT EXISTS ")
        }
        literal.append(sql: name.quotedDatabaseIdentifier + " ON " + table.quotedDatabaseIdentifier + "(")
        literal += expressions.map { $0.sql }.joined(separator: ", ")
        literal.append(sql: ")")
        if let condition {
            literal.append(sql: " WHERE ")
            literal += condition.sql
        }
        return try db.schemaSQL(literal)
    }
}

extension Database {
    /// The name ``Database/create(indexOn:columns:options:condition:)``
    /// gives to an index: `index_<table>_on_<column>_<column>`.
    static func defaultIndexName(on table: String, columns: [String]) -> String {
        "index_" + table + "_on_" + columns.joined(separator: "_")
    }
}
