/// A database table, by name, for requests without a record type.
///
/// ```swift
/// let playerTable = Table("player")                 // Table<Row>
/// let rows = try playerTable.filter(Column("score") > 1000).fetchAll(db)
/// let count = try playerTable.fetchCount(db)
///
/// let players = try Table<Player>("player").order(Column("name")).fetchAll(db)
/// ```
public struct Table<RowDecoder>: Sendable {
    /// The table name.
    public var tableName: String

    /// A table whose rows are decoded as `RowDecoder`.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table where RowDecoder == Row {
    /// A table of rows: `Table("player")`.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table {
    /// A request of all the rows of the table: `SELECT * FROM "table"`.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(relation: SQLRelation(tableName: tableName, selection: [AllColumns().sqlSelection]))
    }

    /// A request that fetches no row.
    public func none() -> QueryInterfaceRequest<RowDecoder> { all().none() }

    /// A request of the table selecting these values.
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }

    /// A request of the table selecting these values.
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }

    /// A request of the table selecting this SQL.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().select(sql: sql, arguments: arguments)
    }

    /// A request of the table selecting this SQL literal.
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().select(literal: sqlLiteral) }

    /// A request of the table selecting these values, decoded as `type`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// A request of the table selecting these values, decoded as `type`.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// A request of the table selecting this SQL, decoded as `type`.
    public func select<T>(
        sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self
    ) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// A request of the table selecting this SQL literal, decoded as `type`.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }

    /// A request of the table selecting all columns and these values.
    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// A request of the table selecting all columns and these values.
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// A request of the rows that match a condition.
    public func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<RowDecoder> { all().filter(predicate) }

    /// A request of the rows that match a condition in SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(sql: sql, arguments: arguments)
    }

    /// A request of the rows that match a condition as an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().filter(literal: sqlLiteral) }

    /// A request of the table in this order.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> { all().order(orderings) }

    /// A request of the table in this order.
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> { all().order(orderings) }

    /// A request of the table in this SQL order.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().order(sql: sql, arguments: arguments)
    }

    /// A request of the table in this SQL literal order.
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().order(literal: sqlLiteral) }

    /// A request of at most `limit` rows, after skipping `offset` rows.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
        all().limit(limit, offset: offset)
    }

    /// A request of the table, named by `alias`.
    public func aliased(_ alias: TableAliasBase) -> QueryInterfaceRequest<RowDecoder> { all().aliased(alias) }

    /// A request of the table with the `WITH` clause of a common table expression.
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> { all().with(cte) }

    /// The number of rows in the table.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

    /// Deletes all rows of the table, and returns how many.
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }
}

extension Table where RowDecoder == Row {
    /// A cursor over the rows of the table.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }

    /// The rows of the table.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }

    /// The rows of the table, without duplicates.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try all().fetchSet(db) }

    /// The first row of the table, or nil.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }
}

extension Table where RowDecoder: FetchableRecord {
    /// A cursor over the records of the table.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }

    /// The records of the table.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }

    /// The first record of the table, or nil.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// The records of the table, without duplicates.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table {
    /// A request of the row with this primary key: `"id" = ?`.
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }

    /// A request of the rows with these primary keys: `"id" IN (?, ?, ?)`.
    public func filter<Keys: Collection>(keys: Keys) -> QueryInterfaceRequest<RowDecoder>
    where Keys.Element: DatabaseValueConvertible
    {
        all().filter(keys: keys)
    }

    /// A request of the row with this unique key.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// A request of the rows with these unique keys.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: keys)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// A request of the row with this id.
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> { all().filter(id: id) }

    /// A request of the rows with these ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> { all().filter(ids: ids) }
}
