/// A request that can be filtered: `filter`, `none()`.
public protocol FilteredRequest {
    /// The request, with one more condition, which `predicate` returns when
    /// the request runs.
    func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension FilteredRequest {
    /// The request, with one more condition (joined with `AND`).
    public func filter(_ predicate: some SQLSpecificExpressible) -> Self {
        let predicate = predicate.sqlExpression
        if let request = self as? any ImmediateRequestClauses {
            return request.immediateFilter(predicate) as! Self
        }
        return filterWhenConnected { _ in predicate }
    }

    /// The request, with one more condition in raw SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The request, with one more condition as an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(SQLExpression(literal: sqlLiteral))
    }

    /// The request, fetching nothing: `WHERE 0`.
    public func none() -> Self {
        filter(false.databaseValue)
    }

    /// The request itself.
    public func all() -> Self {
        self
    }
}

extension FilteredRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// The record's database components (its `Columns` by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// The request, with one more condition on the record's components.
    public func filter(
        _ predicate: (RowDecoder.DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self
    {
        try filter(predicate(RowDecoder.databaseComponents).sqlExpression)
    }
}
