/// A request that fetches values of type `RowDecoder` (rows, values or
/// records): ``QueryInterfaceRequest`` and ``SQLRequest``.
///
/// ```swift
/// let request = Player.filter(Column("score") > 1000)
/// let players = try request.fetchAll(db)       // [Player]
/// let count = try request.fetchCount(db)       // Int
/// ```
///
/// A request is also a subquery (``SQLSubqueryable``): an expression, and
/// a value to interpolate in SQL literals.
public protocol FetchRequest<RowDecoder>: SQLSubqueryable, DatabaseRegionConvertible {
    /// The type of what the request fetches.
    associatedtype RowDecoder

    /// The request's statement, prepared with its arguments bound.
    ///
    /// - parameter singleResult: A hint that one row is wanted: a request
    ///   may add `LIMIT 1`.
    /// - parameter db: A database connection.
    /// - throws: A ``DatabaseError`` if the SQL is invalid.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

    /// The number of rows the request fetches.
    ///
    /// - throws: A ``DatabaseError``.
    func fetchCount(_ db: Database) throws -> Int
}

/// A request's statement, ready to run, and the adapter of the rows it
/// fetches.
public struct PreparedRequest {
    /// The statement, with the request's arguments bound.
    public var statement: Statement

    /// The adapter of the fetched rows, if any (see ``RowAdapter``).
    public var adapter: (any RowAdapter)?

    /// The fetches that complete the fetched rows, once they are all
    /// fetched: the associations of `including(all:)`. The third argument,
    /// if any, is called before each of their requests runs, with the
    /// request and the key path of its rows (`["books"]`,
    /// `["author", "books"]`): `dumpRequest` prints them.
    var supplementaryFetch: ((Database, [Row], WillExecuteSupplementaryRequest?) throws -> Void)?

    /// Creates a prepared request.
    public init(statement: Statement, adapter: (any RowAdapter)? = nil) {
        self.statement = statement
        self.adapter = adapter
    }
}

/// Called before a request that completes fetched rows runs (see
/// ``PreparedRequest/supplementaryFetch``).
typealias WillExecuteSupplementaryRequest = (_ request: QueryInterfaceRequest<Row>, _ keyPath: [String]) throws -> Void

// A statement is used inside the database access that made it.
@available(*, unavailable)
extension PreparedRequest: Sendable {}

/// A request from literal SQL.
///
/// ```swift
/// let request = SQLRequest<Player>(sql: "SELECT * FROM player WHERE score > ?", arguments: [1000])
/// let players = try request.fetchAll(db)
/// ```
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
    /// The SQL and its arguments.
    public var sqlLiteral: SQL
    /// The adapter of the fetched rows, if any (see ``RowAdapter``).
    public var adapter: (any RowAdapter)?
    /// Whether the statement comes from the connection's statement cache.
    let cached: Bool

    /// A request from SQL and arguments.
    ///
    /// ```swift
    /// let request = SQLRequest<Player>(
    ///     sql: "SELECT 1 AS id, 'Arthur' AS playerName",
    ///     adapter: ColumnMapping(["id": "id", "name": "playerName"]))
    /// ```
    ///
    /// - parameters:
    ///   - adapter: The adapter of the fetched rows, if any.
    ///   - cached: Whether the statement is reused from the connection's
    ///     cache (for requests run many times).
    /// - parameter arguments: The statement arguments.
    /// - parameter sql: An SQL query.
    public init(
        sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil, cached: Bool = false)
    {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// A request from an SQL literal.
    ///
    /// - parameters:
    ///   - adapter: The adapter of the fetched rows, if any.
    ///   - cached: Whether the statement is reused from the connection's cache.
    /// - parameter sqlLiteral: An SQL literal.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.cached = cached
    }

    /// The request's statement, with its arguments bound, and its adapter.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        let (sql, arguments) = try sqlLiteral.build(db)
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, adapter: adapter)
    }

    /// The request as a subquery, its SQL written as it is.
    public var sqlSubquery: SQLSubquery { SQLSubquery(.literal(sqlLiteral)) }

    /// `SELECT COUNT(*) FROM (sql)`.
    public func fetchCount(_ db: Database) throws -> Int {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
    }
}

extension SQLRequest where RowDecoder == Row {
    /// A request of rows from SQL and arguments: `SQLRequest(sql: "SELECT ...")`.
    ///
    /// - parameters:
    ///   - adapter: The adapter of the fetched rows, if any.
    ///   - cached: Whether the statement is reused from the connection's cache.
    /// - parameter arguments: The statement arguments.
    /// - parameter sql: An SQL query.
    public init(
        sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil, cached: Bool = false)
    {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// A request of rows from an SQL literal.
    ///
    /// - parameters:
    ///   - adapter: The adapter of the fetched rows, if any.
    ///   - cached: Whether the statement is reused from the connection's cache.
    /// - parameter sqlLiteral: An SQL literal.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.cached = cached
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    /// A request from an SQL literal: `SQLRequest<Player>("SELECT * FROM player WHERE id = \(id)")`.
    public init(stringInterpolation: SQLInterpolation) {
        self.init(literal: SQL(stringInterpolation: stringInterpolation))
    }

    /// A request from SQL without arguments.
    public init(stringLiteral sql: String) {
        self.init(sql: sql)
    }
}
