extension Database {
    /// Prints the rows of every statement in `sql`.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     try db.dumpSQL("SELECT * FROM player ORDER BY id")
    /// }
    /// ```
    ///
    /// The statements run one after the other, as with ``execute(literal:)``:
    /// they may write, if the access allows it. Rows printed before an error
    /// stay printed.
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
        var output = DumpStream(stream)
        try dumpStatements(of: sql, format: format, to: &output)
    }

    /// Prints the rows of a request.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // 2|Barbara|1000
    ///     try db.dumpRequest(Player.filter(Column("score") > 500), format: .list())
    /// }
    /// ```
    ///
    /// The associations that the request prefetches (`including(all:)`)
    /// follow, as GRDB prints them: after a blank line, the key path of
    /// each association and the rows of its request.
    ///
    /// ```swift
    /// // 1|Arthur
    /// //
    /// // books
    /// // 1|1|Moby Dick
    /// try db.dumpRequest(Author.including(all: Author.books))
    /// ```
    ///
    /// - parameters:
    ///   - request: The request to run.
    ///   - format: The output format; ``DumpFormat/debug(header:separator:nullValue:)`` by default.
    ///   - stream: Where to print; the standard output when nil.
    /// - throws: A ``DatabaseError`` if the request fails, or the error of the format.
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        var output = DumpStream(stream)
        try dumpRequest(request, format: format, to: &output)
    }

    /// Prints the rows of a request, then, for each association it
    /// prefetches, the key path and the rows of its request. As GRDB does,
    /// the prefetches run once for the rows of the request, then once more
    /// as each of their requests is printed.
    func dumpRequest(_ request: some FetchRequest, format: some DumpFormat, to stream: inout DumpStream) throws {
        let prepared = try request.makePreparedRequest(self, forSingleResult: false)
        try dump(prepared.statement, format: format, to: &stream)
        guard let supplementaryFetch = prepared.supplementaryFetch else { return }
        let rows = try Row.fetchAll(self, request)
        try withoutActuallyEscaping(
            { (request: QueryInterfaceRequest<Row>, keyPath: [String]) in
                stream.write("\n")
                stream.writeLine(keyPath.joined(separator: "."))
                try self.dumpRequest(request, format: format, to: &stream)
            },
            do: { willExecute in try supplementaryFetch(self, rows, willExecute) })
    }

    /// Prints the rows of tables and views.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // player
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     //
    ///     // team
    ///     // 1|Red
    ///     // 2|Blue
    ///     try db.dumpTables(["player", "team"])
    /// }
    /// ```
    ///
    /// A table's rows are printed in the order of its primary key (the
    /// rowid, when it has no explicit primary key). A view's rows are printed
    /// in the view's own order, which SQLite may not keep from one run to the
    /// next, unless `stableOrder` is true: then they are sorted on all
    /// columns, first to last. Tables are separated by a blank line.
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
        var output = DumpStream(stream)
        try dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: &output)
    }

    /// Prints the schema of the database, then the rows of every table.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     try db.dumpContent()
    /// }
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
    /// The schema is printed as by ``dumpSchema(to:)``. Tables follow in
    /// the alphabetical order of their names, regardless of case, each
    /// under its name, in the order of its primary key. Internal objects are
    /// left out: those whose name starts with `sqlite_`, `pragma_` or
    /// `grdb_`, and the shadow tables of virtual tables. Only the main
    /// database is dumped, not attached ones or temporary tables.
    ///
    /// The dump only reads: the schema and the rows. It never reads or
    /// prints a key.
    ///
    /// - parameters:
    ///   - format: The output format of the rows; ``DumpFormat/debug(header:separator:nullValue:)`` by default.
    ///   - stream: Where to print; the standard output when nil.
    /// - throws: A ``DatabaseError`` if SQLite fails, or the error of the format.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        var output = DumpStream(stream)
        try dumpContent(format: format, to: &output)
    }

    /// Prints the schema of the database: the SQL that created each table,
    /// index, view and trigger.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     try db.dumpSchema()
    /// }
    /// ```
    ///
    /// prints, for example:
    ///
    /// ```
    /// sqlite_master
    /// CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// CREATE INDEX player_on_name ON player(name);
    /// ```
    ///
    /// Objects are grouped by table, in the alphabetical order of the table
    /// names regardless of case: a table comes first, then its indexes, then
    /// its triggers; a view comes at the place of its own name. Internal
    /// objects are left out: those whose name starts with `sqlite_`,
    /// `pragma_` or `grdb_`, and the shadow tables of virtual tables.
    ///
    /// - parameter stream: Where to print; the standard output when nil.
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        var output = DumpStream(stream)
        try dumpSchema(to: &output)
    }
}

// MARK: - Implementation

extension Database {
    func dumpStatements(of sql: SQL, format: some DumpFormat, to stream: inout DumpStream) throws {
        try forEachStatement(in: sql) { statement in
            try dump(statement, format: format, to: &stream)
        }
    }

    /// Prints the rows of a statement whose arguments are bound, with a fresh
    /// copy of `format`.
    private func dump(_ statement: Statement, format: some DumpFormat, to stream: inout DumpStream) throws {
        var format = format
        let iteration = try StatementIteration(statement, arguments: nil)
        while try iteration.step() {
            try format.writeRow(self, statement: statement, to: &stream)
        }
        format.finalize(self, statement: statement, to: &stream)
    }

    func dumpTables(
        _ tables: [String],
        format: some DumpFormat,
        tableHeader: DumpTableHeaderOptions,
        stableOrder: Bool,
        to stream: inout DumpStream) throws
    {
        let printsNames = switch tableHeader {
        case .always: true
        case .automatic: tables.count > 1
        }
        for (offset, table) in tables.enumerated() {
            // Written, not a margin: it also fulfills a margin that the
            // format asked for after the previous table.
            if offset > 0 { stream.write("\n") }
            if printsNames { stream.writeLine(table) }
            let sql = try dumpQuery(table, stableOrder: stableOrder)
            try dump(makeStatement(sql: sql), format: format, to: &stream)
        }
    }

    /// `SELECT * FROM table` with the ORDER BY clause of the dump.
    private func dumpQuery(_ table: String, stableOrder: Bool) throws -> String {
        let source = "SELECT * FROM " + table.quotedDatabaseIdentifier
        // Tables, virtual or not, sort on their primary key. The table_list
        // pragma looks in every schema, regardless of case.
        let types = try String.fetchAll(self, sql: "SELECT type FROM pragma_table_list(?)", arguments: [table])
        if types.contains(where: { $0 != "view" }) {
            let primaryKey = try String.fetchAll(
                self, sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [table])
            let ordering = primaryKey.isEmpty ? ["rowid"] : primaryKey.map(\.quotedDatabaseIdentifier)
            return source + " ORDER BY " + ordering.joined(separator: ", ")
        }
        // A view has no primary key: all its columns make a stable order.
        guard stableOrder else { return source }
        let columnCount = try makeStatement(sql: source).columnCount
        return source + " ORDER BY " + (1...max(columnCount, 1)).map(String.init).joined(separator: ", ")
    }

    func dumpContent(format: some DumpFormat, to stream: inout DumpStream) throws {
        try dumpSchema(to: &stream)
        stream.margin()
        let hiddenNames = try dumpHiddenTableNames()
        let tables = try String
            .fetchAll(self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name COLLATE NOCASE")
            .filter { !Self.isInternalDumpName($0) && !hiddenNames.contains($0) }
        try dumpTables(tables, format: format, tableHeader: .always, stableOrder: true, to: &stream)
    }

    func dumpSchema(to stream: inout DumpStream) throws {
        stream.writeLine("sqlite_master")
        let hiddenNames = try dumpHiddenTableNames()
        // Group by table; in a group, the table, its indexes, then its
        // triggers (a view is a group of its own).
        let rows = try Row.fetchAll(self, sql: """
            SELECT name, sql || ';' FROM sqlite_master
            WHERE sql IS NOT NULL
            ORDER BY tbl_name COLLATE NOCASE,
                     CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'trigger' THEN 2 ELSE 3 END,
                     name COLLATE NOCASE,
                     sql
            """)
        for row in rows {
            let name: String = try row.decode(atIndex: 0)
            if Self.isInternalDumpName(name) || hiddenNames.contains(name) { continue }
            stream.writeLine(try row.decode(atIndex: 1))
        }
    }

    /// The shadow tables of the main database's virtual tables (the storage
    /// of a full-text index, for example), which dumps leave out.
    private func dumpHiddenTableNames() throws -> Set<String> {
        try Set(String.fetchAll(
            self, sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'"))
    }

    /// Whether a schema object belongs to SQLite or GRDB, not to the application.
    private static func isInternalDumpName(_ name: String) -> Bool {
        name.hasPrefix("sqlite_") || name.hasPrefix("pragma_") || name.hasPrefix("grdb_")
    }
}
