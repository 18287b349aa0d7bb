/// A request that can be grouped: `group`, `having`.
public protocol AggregatingRequest {
    /// The request, grouped by what `expressions` returns when the request
    /// runs, instead of its current grouping.
    func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self

    /// The request, with one more `HAVING` condition, which `predicate`
    /// returns when the request runs.
    func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension AggregatingRequest {
    /// The request, grouped by `expressions` instead of its current grouping.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        let expressions = expressions.map(\.sqlExpression)
        if let request = self as? any ImmediateRequestClauses {
            return request.immediateGroup(expressions) as! Self
        }
        return groupWhenConnected { _ in expressions }
    }

    /// The request, grouped by `expressions` instead of its current grouping.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// The request, grouped by raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The request, grouped by an SQL literal.
    public func group(literal sqlLiteral: SQL) -> Self {
        group([SQLExpression(literal: sqlLiteral)])
    }

    /// The request, with one more `HAVING` condition (joined with `AND`).
    public func having(_ predicate: some SQLExpressible) -> Self {
        let predicate = predicate.sqlExpression
        if let request = self as? any ImmediateRequestClauses {
            return request.immediateHaving(predicate) as! Self
        }
        return havingWhenConnected { _ in predicate }
    }

    /// The request, with one more `HAVING` condition in raw SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The request, with one more `HAVING` condition as an SQL literal.
    public func having(literal sqlLiteral: SQL) -> Self {
        having(SQLExpression(literal: sqlLiteral))
    }
}

extension AggregatingRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// The record's database components (its `Columns` by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// The request, grouped by a value of the record's components.
    public func group(_ expression: (RowDecoder.DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try group([expression(RowDecoder.databaseComponents)])
    }

    /// The request, grouped by values of the record's components.
    public func group(_ expressions: (RowDecoder.DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        try group(expressions(RowDecoder.databaseComponents))
    }

    /// The request, with one more `HAVING` condition on the record's components.
    public func having(_ predicate: (RowDecoder.DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try having(predicate(RowDecoder.databaseComponents).sqlExpression)
    }
}
