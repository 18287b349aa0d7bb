extension Database {
    /// Creates an index on columns: `CREATE INDEX`.
    ///
    /// ```swift
    /// // CREATE INDEX "byEmail" ON "player"("email")
    /// try db.create(index: "byEmail", on: "player", columns: ["email"])
    ///
    /// // CREATE UNIQUE INDEX "byName" ON "team"("name") WHERE "name" IS NOT NULL
    /// try db.create(index: "byName", on: "team", columns: ["name"], options: .unique,
    ///               condition: Column("name") != nil)
    /// ```
    ///
    /// Prefer ``create(indexOn:columns:options:condition:)``, which names
    /// the index for you.
    ///
    /// - parameters:
    ///     - name: The index name.
    ///     - table: The indexed table.
    ///     - columns: The indexed columns.
    ///     - options: Index creation options.
    ///     - condition: The condition of a partial index
    ///       (<https://www.sqlite.org/partialindex.html>); its values are
    ///       written as SQL literals.
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement (an
    ///   index with this name exists, no such table or column).
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        let index = IndexDefinition(
            name: name, table: table, columns: columns, options: options, condition: condition?.sqlExpression)
        try execute(sql: try index.sql(self))
    }

    /// Creates an index on columns, with options given as booleans: prefer
    /// ``create(index:on:columns:options:condition:)``.
    ///
    /// - parameters:
    ///     - name: The index name.
    ///     - table: The indexed table.
    ///     - columns: The indexed columns.
    ///     - unique: Whether the index is `UNIQUE`.
    ///     - ifNotExists: Whether nothing happens if the index exists.
    ///     - condition: The condition of a partial index.
    /// - throws: As ``create(index:on:columns:options:condition:)``.
    @_disfavoredOverload
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        unique: Bool = false,
        ifNotExists: Bool = false,
        condition: (any SQLExpressible)? = nil) throws
    {
        var options: IndexOptions = []
        if ifNotExists { options.insert(.ifNotExists) }
        if unique { options.insert(.unique) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// Creates an index on expressions (<https://www.sqlite.org/expridx.html>),
    /// or on columns with a collation.
    ///
    /// ```swift
    /// // CREATE INDEX "txy" ON "t"("x" + "y")
    /// try db.create(index: "txy", on: "t", expressions: [Column("x") + Column("y")])
    ///
    /// // CREATE INDEX "byName" ON "player"("name" COLLATE NOCASE)
    /// try db.create(index: "byName", on: "player", expressions: [Column("name").collating(.nocase)])
    /// ```
    ///
    /// - parameters:
    ///     - name: The index name.
    ///     - table: The indexed table.
    ///     - expressions: The indexed expressions; their values are written
    ///       as SQL literals.
    ///     - options: Index creation options.
    ///     - condition: The condition of a partial index.
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement.
    public func create(
        index name: String,
        on table: String,
        expressions: [any SQLExpressible],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        let index = IndexDefinition(
            name: name,
            table: table,
            expressions: expressions.map { $0.sqlExpression },
            options: options,
            condition: condition?.sqlExpression)
        try execute(sql: try index.sql(self))
    }

    /// Creates an index on columns, named `index_<table>_on_<columns>`.
    ///
    /// ```swift
    /// // CREATE INDEX "index_player_on_email" ON "player"("email")
    /// try db.create(indexOn: "player", columns: ["email"])
    ///
    /// // CREATE UNIQUE INDEX "index_place_on_latitude_longitude" ON "place"("latitude", "longitude")
    /// try db.create(indexOn: "place", columns: ["latitude", "longitude"], options: .unique)
    /// ```
    ///
    /// - parameters:
    ///     - table: The indexed table.
    ///     - columns: The indexed columns.
    ///     - options: Index creation options.
    ///     - condition: The condition of a partial index.
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement.
    public func create(
        indexOn table: String,
        columns: [String],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        try create(
            index: Database.defaultIndexName(on: table, columns: columns),
            on: table,
            columns: columns,
            options: options,
            condition: condition)
    }

    /// Drops an index: `DROP INDEX`.
    ///
    /// ```swift
    /// try db.drop(index: "byEmail")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if there is no such index.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }

    /// Drops the index on exactly these columns (compared case-insensitively,
    /// in order), if there is exactly one; does nothing otherwise.
    ///
    /// ```swift
    /// try db.drop(indexOn: "player", columns: ["email"])
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if there is no such table.
    public func drop(indexOn table: String, columns: [String]) throws {
        let wanted = columns.map { $0.lowercased() }
        let matches = try indexes(on: table).filter { $0.columns.map { $0.lowercased() } == wanted }
        if matches.count == 1 {
            try drop(index: matches[0].name)
        }
    }

    /// Rebuilds the indexes that use a collation, after its definition
    /// changed: `REINDEX`.
    ///
    /// ```swift
    /// try db.reindex(collation: .nocase)
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement.
    public func reindex(collation: Database.CollationName) throws {
        try execute(sql: "REINDEX \(collation.rawValue)")
    }

    /// Rebuilds the indexes that use a custom collation, after its
    /// definition changed: `REINDEX`.
    ///
    /// ```swift
    /// try db.reindex(collation: .localizedCompare)
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement.
    public func reindex(collation: DatabaseCollation) throws {
        try reindex(collation: Database.CollationName(rawValue: collation.name))
    }
}
