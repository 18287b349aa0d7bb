import CSQLCipher

// Fetching values from the first column of each row. Types that also adopt
// StatementColumnConvertible take the fast path (FastDatabaseValueCursor).
// A NULL, or a value that cannot be decoded, is a RowDecodingError, except in
// fetchOne where NULL gives nil; fetch `Optional` values to keep NULLs.
// With an `adapter:`, the value is the adapted row's first column: its
// column in the fetched row is found once, when the cursor is made.

extension DatabaseValueConvertible {
    /// A cursor over the values of a statement's first column.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> DatabaseValueCursor<Self>
    {
        try DatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All values of a statement's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> [Self]
    {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The value of the first row's first column, or nil if there is no row
    /// or the value is NULL.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Self?
    {
        let cursor = try DatabaseValueCursor<Self?>(statement: statement, arguments: arguments, adapter: adapter)
        return try cursor.next() ?? nil
    }

    /// A cursor over the values of an SQL query's first column.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws
        -> DatabaseValueCursor<Self>
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All values of an SQL query's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Self]
    {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The value of the first row's first column, or nil if there is no row
    /// or the value is NULL.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Self?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct values of a statement's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchSet(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Set<Self>
    {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The distinct values of an SQL query's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of a statement's first column, read on the fast path.
    ///
    /// - throws: A ``DatabaseError``.
    @inlinable
    public static func fetchCursor(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> FastDatabaseValueCursor<Self>
    {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All values of a statement's first column, read on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    @inlinable
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> [Self]
    {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The value of the first row's first column, or nil if there is no row
    /// or the value is NULL.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    @inlinable
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Self?
    {
        let cursor = try FastDatabaseValueCursor<Self?>(statement: statement, arguments: arguments, adapter: adapter)
        return try cursor.next() ?? nil
    }

    /// A cursor over the values of an SQL query's first column, read on the fast path.
    ///
    /// - throws: A ``DatabaseError``.
    @inlinable
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws
        -> FastDatabaseValueCursor<Self>
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All values of an SQL query's first column, read on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    @inlinable
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Self]
    {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The value of the first row's first column, or nil if there is no row
    /// or the value is NULL.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    @inlinable
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Self?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// The distinct values of a statement's first column, read on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    @inlinable
    public static func fetchSet(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Set<Self>
    {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The distinct values of an SQL query's first column, read on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    @inlinable
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}
