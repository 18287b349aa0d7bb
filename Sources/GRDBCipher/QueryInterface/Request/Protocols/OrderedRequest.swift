/// A request that can be ordered: `order`, `reversed()`, `unordered()`.
public protocol OrderedRequest {
    /// The request, ordered by what `orderings` returns when the request
    /// runs, instead of its current order.
    func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self

    /// The request, in the reverse of its current order.
    func reversed() -> Self

    /// The request, without order.
    func unordered() -> Self

    /// The request, with its primary key appended to its order, so that the
    /// order of its rows is deterministic.
    func withStableOrder() -> Self
}

extension OrderedRequest {
    /// The request, ordered by `orderings` instead of its current order.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// The request, ordered by `orderings` instead of its current order.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        let orderings = orderings.map(\.sqlOrdering)
        if let request = self as? any ImmediateRequestClauses {
            return request.immediateOrder(orderings) as! Self
        }
        return orderWhenConnected { _ in orderings }
    }

    /// The request, ordered by raw SQL.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The request, ordered by an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([SQLOrdering(literal: sqlLiteral)])
    }
}

extension OrderedRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// The record's database components (its `Columns` by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// The request, ordered by a term of the record's components.
    public func order(_ ordering: (RowDecoder.DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// The request, ordered by terms of the record's components.
    public func order(_ orderings: (RowDecoder.DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        try order(orderings(RowDecoder.databaseComponents))
    }
}
