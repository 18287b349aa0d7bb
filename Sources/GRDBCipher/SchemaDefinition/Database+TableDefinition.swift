extension Database {
    /// Creates a table: `CREATE TABLE`, and the indexes that its indexed
    /// columns and foreign keys ask for.
    ///
    /// ```swift
    /// // CREATE TABLE "place" (
    /// //   "id" INTEGER PRIMARY KEY AUTOINCREMENT,
    /// //   "title" TEXT,
    /// //   "isFavorite" BOOLEAN NOT NULL DEFAULT 0,
    /// //   "latitude" DOUBLE NOT NULL,
    /// //   "longitude" DOUBLE NOT NULL
    /// // )
    /// try db.create(table: "place") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("title", .text)
    ///     t.column("isFavorite", .boolean).notNull().defaults(to: false)
    ///     t.column("latitude", .double).notNull()
    ///     t.column("longitude", .double).notNull()
    /// }
    /// ```
    ///
    /// See ``TableDefinition`` for columns and constraints, and
    /// ``TableOptions`` for `IF NOT EXISTS`, `TEMPORARY`, `WITHOUT ROWID`
    /// and `STRICT`. Values in defaults, checks and generated columns are
    /// written as SQL literals, since SQLite does not bind parameters in a
    /// schema. The schema cache of the connection sees the new table.
    ///
    /// - parameters:
    ///     - name: The table name.
    ///     - options: Table creation options.
    ///     - body: A closure that defines the columns and constraints.
    /// - throws: The error of `body`; a ``DatabaseError`` if a table that
    ///   a foreign key refers to does not exist, or if SQLite refuses the
    ///   statement (a table that already exists, an invalid constraint):
    ///   its `sql` is the refused statement.
    public func create(
        table name: String,
        options: TableOptions = [],
        body: (TableDefinition) throws -> Void) throws
    {
        let table = TableDefinition(name: name, options: options)
        try body(table)
        try execute(sql: try table.sql(self))
    }

    /// Creates a table, with options given as booleans: prefer
    /// ``create(table:options:body:)``.
    ///
    /// ```swift
    /// try db.create(table: "player", ifNotExists: true) { t in ... }
    /// ```
    ///
    /// - parameters:
    ///     - name: The table name.
    ///     - temporary: Whether the table is `TEMPORARY`.
    ///     - ifNotExists: Whether nothing happens if the table exists.
    ///     - withoutRowID: Whether the table is `WITHOUT ROWID`.
    ///     - body: A closure that defines the columns and constraints.
    /// - throws: As ``create(table:options:body:)``.
    @_disfavoredOverload
    public func create(
        table name: String,
        temporary: Bool = false,
        ifNotExists: Bool = false,
        withoutRowID: Bool = false,
        body: (TableDefinition) throws -> Void) throws
    {
        var options: TableOptions = []
        if temporary { options.insert(.temporary) }
        if ifNotExists { options.insert(.ifNotExists) }
        if withoutRowID { options.insert(.withoutRowID) }
        try create(table: name, options: options, body: body)
    }

    /// Renames a table: `ALTER TABLE ... RENAME TO ...`.
    ///
    /// ```swift
    /// try db.rename(table: "team", to: "guild")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement (no
    ///   such table, or a table with the new name exists).
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Changes a table: adds, renames and drops columns, each change with
    /// its own `ALTER TABLE` statement, in order.
    ///
    /// ```swift
    /// // ALTER TABLE "player" ADD COLUMN "url" TEXT
    /// try db.alter(table: "player") { t in
    ///     t.add(column: "url", .text)
    /// }
    /// ```
    ///
    /// See ``TableAlteration``. The schema cache of the connection sees the
    /// changes. Outside of a transaction, the changes made before a failing
    /// one stay: run `alter` in a transaction (a migration is one) to make
    /// them all or nothing.
    ///
    /// - parameters:
    ///     - name: The table name.
    ///     - body: A closure that lists the changes.
    /// - throws: A ``DatabaseError`` if SQLite refuses a statement (no such
    ///   table or column, a column that cannot be added or dropped): its
    ///   `sql` is the refused statement.
    public func alter(table name: String, body: (TableAlteration) -> Void) throws {
        let alteration = TableAlteration(name: name)
        body(alteration)
        let sql = try alteration.sql(self)
        if sql.isEmpty { return }
        try execute(sql: sql)
    }

    /// Drops a table: `DROP TABLE`.
    ///
    /// ```swift
    /// try db.drop(table: "obsolete")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if there is no such table.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }
}
