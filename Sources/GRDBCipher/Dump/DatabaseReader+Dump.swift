extension DatabaseReader {
    /// Prints the rows of a request; see ``Database/dumpRequest(_:format:to:)``.
    ///
    /// ```swift
    /// try dbQueue.dumpRequest(Player.order(Column("score").desc), format: .json())
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the request fails, or the error of the format.
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.dumpRequest(request, format: format, to: stream)
        }
    }

    /// Prints the rows of every statement in `sql`; see
    /// ``Database/dumpSQL(_:format:to:)``.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try dbQueue.dumpSQL("SELECT * FROM player ORDER BY id")
    /// ```
    ///
    /// The statements run in a read access that may be nested in another
    /// access of this reader. It opens no transaction of its own, so that
    /// the SQL may hold its own; on a ``DatabaseQueue``, the SQL may write.
    ///
    /// - parameters:
    ///   - sql: The SQL to run, with its arguments.
    ///   - format: The output format; ``DumpFormat/debug(header:separator:nullValue:)`` by default.
    ///   - stream: Where to print; the standard output when nil.
    /// - throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails, or the error of the format.
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.dumpSQL(sql, format: format, to: stream)
        }
    }

    /// Prints the rows of tables and views; see
    /// ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``.
    ///
    /// ```swift
    /// // player
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// //
    /// // team
    /// // 1|Red
    /// // 2|Blue
    /// try dbQueue.dumpTables(["player", "team"])
    /// ```
    ///
    /// The tables are read in a read access that may be nested in another
    /// access of this reader, in one transaction, so that they show one
    /// state of the database.
    ///
    /// - parameters:
    ///   - tables: The names of the tables and views, printed in this order.
    ///   - format: The output format; ``DumpFormat/debug(header:separator:nullValue:)`` by default.
    ///   - tableHeader: Whether each table's name is printed above its rows:
    ///     by default, only when there are several tables.
    ///   - stableOrder: Whether the rows of views are sorted, so that the
    ///     output is the same each time (for tests, for example).
    ///   - stream: Where to print; the standard output when nil.
    /// - throws: A ``DatabaseError`` if a table does not exist or SQLite
    ///   fails, or the error of the format.
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil) throws
    {
        try dumpRead { db in
            try db.dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: stream)
        }
    }

    /// Prints the schema of the database, then the rows of every table; see
    /// ``Database/dumpContent(format:to:)``.
    ///
    /// ```swift
    /// try dbQueue.dumpContent()
    /// ```
    ///
    /// prints, for example:
    ///
    /// ```
    /// sqlite_master
    /// CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    ///
    /// player
    /// 1|Arthur|500
    /// 2|Barbara|1000
    /// ```
    ///
    /// The database is read in a read access that may be nested in another
    /// access of this reader, in one transaction, so that the dump shows one
    /// state of the database. It only reads the schema and the rows: it
    /// never reads or prints a key.
    ///
    /// - parameters:
    ///   - format: The output format of the rows; ``DumpFormat/debug(header:separator:nullValue:)`` by default.
    ///   - stream: Where to print; the standard output when nil.
    /// - throws: A ``DatabaseError`` if SQLite fails, or the error of the format.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        try dumpRead { db in
            try db.dumpContent(format: format, to: stream)
        }
    }

    /// Prints the schema of the database; see ``Database/dumpSchema(to:)``.
    ///
    /// ```swift
    /// try dbQueue.dumpSchema()
    /// ```
    ///
    /// prints, for example:
    ///
    /// ```
    /// sqlite_master
    /// CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// ```
    ///
    /// - parameter stream: Where to print; the standard output when nil.
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        try dumpRead { db in
            try db.dumpSchema(to: stream)
        }
    }

    /// Runs `body` in a read access that may be nested in another access of
    /// this reader, inside a read-only transaction unless the access already
    /// has a transaction.
    private func dumpRead(_ body: (Database) throws -> Void) throws {
        try unsafeReentrantRead { db in
            if db.isInsideTransaction {
                try body(db)
            } else {
                try db.readOnlyTransaction(body)
            }
        }
    }
}
