// Fetching rows. With an `adapter:`, each row is an adapted row over the
// fetched one (see RowAdapter): the adapter is applied to the statement's
// columns once per fetch.

extension Row {
    /// A cursor over the rows of a statement.
    ///
    /// - parameters:
    ///   - statement: The statement.
    ///   - arguments: Arguments to bind, or nil to keep the bound ones.
    /// - parameter adapter: A row adapter applied to the fetched rows, or nil.
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> RowCursor
    {
        try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All rows of a statement.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> [Row]
    {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter).map { $0.copy() })
    }

    /// The distinct rows of a statement.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchSet(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Set<Row>
    {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter).map { $0.copy() })
    }

    /// The first row of a statement, or nil.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Row?
    {
        // The cursor resets the statement when it goes away: copy before that.
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        return try withExtendedLifetime(cursor) { try cursor.next()?.copy() }
    }

    /// A cursor over the rows of an SQL query.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [100])
    /// while let row = try rows.next() { ... }
    /// ```
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> RowCursor
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All rows of an SQL query.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Row]
    {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The distinct rows of an SQL query.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Row>
    {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first row of an SQL query, or nil.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Row?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}
