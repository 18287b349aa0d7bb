// Requests on a record's table: `Player.all()`, `Player.filter(...)`, and
// the counting and deleting that need no record instance.
//
// Each method is declared right before its closure form, as in GRDB: Swift
// tries overloads in the order it finds them, and an expression that it can
// read as SQL or as a Swift `Bool` (`!(Column("age") == nil)`) is read as
// GRDB reads it only when the candidates come in GRDB's order.

extension TableRecord {
    /// A request of all the rows of the table, with the record's selection.
    ///
    /// ```swift
    /// let players = try Player.all().fetchAll(db)   // SELECT * FROM "player"
    /// ```
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(relation: SQLRelation(
            tableName: databaseTableName, selection: databaseSelection.map({ $0.sqlSelection })))
    }

    /// A request that fetches no row.
    public static func none() -> QueryInterfaceRequest<Self> {
        all().none()
    }

    /// A request of the table selecting these values.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// A request of the table selecting these values.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// A request of the table selecting a value of the record's components.
    public static func select(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().select(selection)
    }

    /// A request of the table selecting values of the record's components.
    public static func select(
        _ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().select(selection)
    }

    /// A request of the table selecting this SQL.
    public static func select(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self>
    {
        all().select(sql: sql, arguments: arguments)
    }

    /// A request of the table selecting this SQL literal.
    public static func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().select(literal: sqlLiteral)
    }

    /// A request of the table selecting these values, decoded as `type`.
    public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: type)
    }

    /// A request of the rows that match a condition.
    ///
    /// ```swift
    /// let request = Player.filter(Column("score") > 1000)
    /// // SELECT * FROM "player" WHERE "score" > ?
    /// ```
    public static func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<Self> {
        all().filter(predicate)
    }

    /// A request of the rows that match a condition on the record's components.
    ///
    /// ```swift
    /// let request = Player.filter { $0.score > 1000 }
    /// ```
    public static func filter(
        _ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().filter(predicate)
    }

    /// A request of the rows that match a condition in SQL.
    public static func filter(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self>
    {
        all().filter(sql: sql, arguments: arguments)
    }

    /// A request of the rows that match a condition as an SQL literal.
    public static func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().filter(literal: sqlLiteral)
    }

    /// A request of the table in this order.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// A request of the table in this order.
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// A request of the table ordered by a term of the record's components:
    /// `Player.order(\.score.desc)`.
    public static func order(
        _ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().order(ordering)
    }

    /// A request of the table ordered by terms of the record's components.
    public static func order(
        _ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().order(orderings)
    }

    /// A request of the table in the order of this SQL.
    public static func order(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self>
    {
        all().order(sql: sql, arguments: arguments)
    }

    /// A request of the table in the order of this SQL literal.
    public static func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().order(literal: sqlLiteral)
    }

    /// A request of at most `limit` rows, after skipping `offset` rows.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
        all().limit(limit, offset: offset)
    }

    /// The number of rows in the table: `SELECT COUNT(*) FROM "player"`.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCount(_ db: Database) throws -> Int {
        try all().fetchCount(db)
    }

    /// Deletes every row of the table, and returns how many.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }
}
