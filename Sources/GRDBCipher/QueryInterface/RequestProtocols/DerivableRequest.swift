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

/// A request that can be joined with associations.
public protocol JoinableRequest<RowDecoder>: TypedRequest { }
