/// A [common table expression](https://sqlite.org/lang_with.html): a named
/// request that other requests read as a table, after `with(_:)` has added
/// its `WITH` clause.
///
/// ```swift
/// // WITH "answer" AS (SELECT 42 AS value) SELECT * FROM "answer"
/// let answer = CommonTableExpression(named: "answer", sql: "SELECT 42 AS value")
/// let row = try answer.all().with(answer).fetchOne(db)
/// ```
public struct CommonTableExpression<RowDecoder>: Sendable {
    let cte: SQLCTE

    /// The name of the common table expression.
    public var tableName: String { cte.tableName }

    private init(recursive: Bool, named tableName: String, columns: [String]?, subquery: SQLSubquery) {
        cte = SQLCTE(tableName: tableName, columns: columns, subquery: subquery, isRecursive: recursive)
    }

    /// A common table expression from a request.
    ///
    /// ```swift
    /// // WITH "p" AS (SELECT * FROM "player") ...
    /// let p = CommonTableExpression<Void>(named: "p", request: Player.all())
    /// ```
    ///
    /// - parameter recursive: Whether it needs `WITH RECURSIVE`.
    /// - parameter columns: The names of its columns; nil for the columns
    ///   of the request.
    /// - parameter tableName: The name of the common table expression.
    /// - parameter request: The request whose rows the common table expression holds.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
    }

    /// A common table expression from SQL and arguments.
    ///
    /// ```swift
    /// let p = CommonTableExpression<Void>(named: "p", sql: "SELECT * FROM player WHERE name = ?", arguments: [name])
    /// ```
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        sql: String, arguments: StatementArguments = StatementArguments())
    {
        self.init(recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: sql, arguments: arguments))
    }

    /// A common table expression from an SQL literal.
    ///
    /// ```swift
    /// let p = CommonTableExpression<Void>(named: "p", literal: "SELECT * FROM player WHERE name = \(name)")
    /// ```
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: SQLSubquery(.literal(sqlLiteral)))
    }

    /// A request of all the rows of the common table expression. Add its
    /// definition with `with(_:)`:
    ///
    /// ```swift
    /// // WITH "answer" AS (SELECT 42 AS value) SELECT * FROM "answer"
    /// let request = answer.all().with(answer)
    /// ```
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(relation: SQLRelation(tableName: tableName, selection: [AllColumns().sqlSelection]))
    }

    /// Whether the common table expression contains the value: `value IN "cte"`.
    ///
    /// ```swift
    /// let names = CommonTableExpression(named: "name", request: Player.select(Column("name")))
    /// // WITH "name" AS (SELECT "name" FROM "player") SELECT * FROM "team" WHERE "captain" IN "name"
    /// let request = Team.with(names).filter(names.contains(Column("captain")))
    /// ```
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(.inCollection(element.sqlExpression, SQL(sql: tableName.quotedDatabaseIdentifier), negated: false))
    }
}

extension CommonTableExpression<Row> {
    /// A common table expression of rows, from a request.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
    }

    /// A common table expression of rows, from SQL and arguments.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        sql: String, arguments: StatementArguments = StatementArguments())
    {
        self.init(recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: sql, arguments: arguments))
    }

    /// A common table expression of rows, from an SQL literal.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: SQLSubquery(.literal(sqlLiteral)))
    }
}

/// The definition of a common table expression, as requests hold it.
struct SQLCTE: Sendable {
    var tableName: String
    var columns: [String]?
    var subquery: SQLSubquery
    var isRecursive: Bool

    /// `"name"("a", "b") AS (SELECT ...)`.
    func writeDefinition(into sql: inout String, _ context: SQLGenerationContext) throws {
        sql += tableName.quotedDatabaseIdentifier
        if let columns, !columns.isEmpty {
            sql += "(" + columns.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ") + ")"
        }
        sql += " AS ("
        try subquery.write(into: &sql, context)
        sql += ")"
    }
}
