// Fetching records from SQL, from prepared statements, and from SQL literals.
// With an `adapter:`, records decode from adapted rows (see RowAdapter).

extension FetchableRecord {
    /// A cursor over the records of a prepared statement.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE lastName = ?")
    /// let players = try Player.fetchCursor(statement, arguments: ["O'Reilly"])
    /// while let player = try players.next() { ... }
    /// ```
    ///
    /// The cursor is valid only inside the current database access.
    ///
    /// - parameters:
    ///   - statement: The statement to run.
    ///   - arguments: Arguments to bind, or nil to keep the bound ones.
    /// - parameter adapter: A row adapter applied to the fetched rows, or nil.
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> RecordCursor<Self>
    {
        try RecordCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// The records of a prepared statement.
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> [Self]
    {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The first record of a prepared statement, or nil.
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Self?
    {
        try fetchCursor(statement, arguments: arguments, adapter: adapter).next()
    }

    /// A cursor over the records of an SQL query.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [100])
    /// while let player = try players.next() { ... }
    /// ```
    ///
    /// The cursor is valid only inside the current database access.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws
        -> RecordCursor<Self>
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The records of an SQL query.
    ///
    /// ```swift
    /// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
    /// ```
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Self]
    {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first record of an SQL query, or nil.
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Self?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the records of an SQL literal.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, literal: "SELECT * FROM player WHERE name = \(name)")
    /// ```
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, literal sqlLiteral: SQL) throws -> RecordCursor<Self> {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchCursor(db, sql: sql, arguments: arguments)
    }

    /// The records of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchAll(_ db: Database, literal sqlLiteral: SQL) throws -> [Self] {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchAll(db, sql: sql, arguments: arguments)
    }

    /// The first record of an SQL literal, or nil.
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchOne(_ db: Database, literal sqlLiteral: SQL) throws -> Self? {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchOne(db, sql: sql, arguments: arguments)
    }
}

extension FetchableRecord where Self: Hashable {
    /// The distinct records of a prepared statement.
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchSet(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Set<Self>
    {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The distinct records of an SQL query.
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The distinct records of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``, or the error of ``init(row:)``.
    public static func fetchSet(_ db: Database, literal sqlLiteral: SQL) throws -> Set<Self> {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchSet(db, sql: sql, arguments: arguments)
    }
}
