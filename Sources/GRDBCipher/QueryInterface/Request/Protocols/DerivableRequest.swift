/// A request that can be refined with every clause of the query interface:
/// the protocol to extend with methods of your own that work on requests
/// of a record type.
///
/// ```swift
/// extension DerivableRequest<Player> {
///     func bestFirst() -> Self {
///         order(Column("score").desc)
///     }
/// }
///
/// let players = try Player.all().bestFirst().limit(10).fetchAll(db)
/// ```
public protocol DerivableRequest<RowDecoder>:
    AggregatingRequest, FilteredRequest, JoinableRequest, OrderedRequest, SelectionRequest, TableRequest
{
    /// The request, without duplicate rows: `SELECT DISTINCT`.
    func distinct() -> Self

    /// The request, with the `WITH` clause of a common table expression.
    func with<T>(_ cte: CommonTableExpression<T>) -> Self
}

/// A request that can be joined with associations: `including`, `joining`.
public protocol JoinableRequest<RowDecoder>: TypedRequest {
    /// The request, with the rows of a to-many association prefetched. Use
    /// `including(all:)`.
    func _including(all association: _SQLAssociation) -> Self
    /// The request, with an association joined with `LEFT JOIN`, its
    /// columns selected. Use `including(optional:)`.
    func _including(optional association: _SQLAssociation) -> Self
    /// The request, with an association joined with `JOIN`, its columns
    /// selected. Use `including(required:)`.
    func _including(required association: _SQLAssociation) -> Self
    /// The request, with an association joined with `LEFT JOIN`. Use
    /// `joining(optional:)`.
    func _joining(optional association: _SQLAssociation) -> Self
    /// The request, with an association joined with `JOIN`. Use
    /// `joining(required:)`.
    func _joining(required association: _SQLAssociation) -> Self
}

extension DerivableRequest {
    // Swift finds this `having(_:)` before the one of AggregatingRequest
    // for a QueryInterfaceRequest, as in GRDB, because of the order of its
    // conformances (see QueryInterfaceRequest+DerivableRequest.swift): it
    // tries overloads in the order it finds them, which decides how it
    // reads `having(a || !(b == nil))`.

    /// The request, with one more condition on an association aggregate in
    /// its `HAVING` clause.
    ///
    /// ```swift
    /// // ... GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") = 0
    /// let request = Team.all().having(Team.players.isEmpty)
    /// ```
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> Self {
        mapRelation { relation in
            let expression = predicate.prepare(&relation).expression
            relation.havingExpressions.append(expression)
        }
    }
}
