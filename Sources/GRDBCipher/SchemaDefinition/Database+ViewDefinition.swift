extension Database {
    /// Creates a view from a request: `CREATE VIEW ... AS SELECT ...`.
    ///
    /// ```swift
    /// // CREATE VIEW "hero" AS SELECT * FROM "player" WHERE "isHero" = 1
    /// try db.create(view: "hero", as: Table("player").filter(Column("isHero") == true))
    ///
    /// // CREATE VIEW "hero" AS SELECT * FROM player WHERE isHero == 1
    /// try db.create(view: "hero", as: SQLRequest(literal: "SELECT * FROM player WHERE isHero == 1"))
    /// ```
    ///
    /// In migrations, prefer `Table("player")` to a record type of the
    /// application, whose definition changes over time. Values in the
    /// request are written as SQL literals, since SQLite does not bind
    /// parameters in a schema.
    ///
    /// - parameters:
    ///     - name: The view name.
    ///     - options: View creation options.
    ///     - columns: The names of the columns of the view; nil for the
    ///       columns of the request.
    ///     - request: The request whose rows the view shows.
    /// - throws: A ``DatabaseError`` if the request cannot be built, or if
    ///   SQLite refuses the statement (a view with this name exists, an
    ///   invalid request).
    public func create(
        view name: String,
        options: ViewOptions = [],
        columns: [String]? = nil,
        as request: any SQLSubqueryable) throws
    {
        var literal = SQL(sql: options.contains(.temporary) ? "CREATE TEMPORARY VIEW " : "CREATE VIEW ")
        if options.contains(.ifNotExists) {
            literal.append(sql: "IF NOT EXISTS ")
        }
        literal.append(sql: name.quotedDatabaseIdentifier + " ")
        if let columns {
            literal.append(sql: "(" + columns.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ") + ") ")
        }
        literal.append(sql: "AS ")
        literal.append(element: .subquery(request.sqlSubquery))
        try execute(sql: try schemaSQL(literal))
    }

    /// Creates a view from an SQL literal: `CREATE VIEW ... AS ...`.
    ///
    /// ```swift
    /// // CREATE VIEW "hero" AS SELECT * FROM player WHERE isHero == 1
    /// try db.create(view: "hero", asLiteral: "SELECT * FROM player WHERE isHero == 1")
    /// ```
    ///
    /// - parameters:
    ///     - name: The view name.
    ///     - options: View creation options.
    ///     - columns: The names of the columns of the view; nil for the
    ///       columns of the query.
    ///     - sqlLiteral: The `SELECT` statement; its values are written as
    ///       SQL literals.
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement.
    public func create(
        view name: String,
        options: ViewOptions = [],
        columns: [String]? = nil,
        asLiteral sqlLiteral: SQL) throws
    {
        try create(view: name, options: options, columns: columns, as: SQLRequest<Row>(literal: sqlLiteral))
    }

    /// Drops a view: `DROP VIEW`.
    ///
    /// ```swift
    /// try db.drop(view: "hero")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if there is no such view.
    public func drop(view name: String) throws {
        try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
    }
}
