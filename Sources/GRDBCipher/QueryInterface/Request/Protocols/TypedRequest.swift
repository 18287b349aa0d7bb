/// A request that knows the type of what it fetches.
public protocol TypedRequest<RowDecoder> {
    /// The type of what the request fetches.
    associatedtype RowDecoder
}

/// The clauses that ``QueryInterfaceRequest`` applies at once. The methods
/// of the request protocols use them when the request is a query
/// interface request, so that a request built in a generic context
/// (`extension DerivableRequest<Player>`) generates the same SQL as one
/// built on the concrete type; other requests go through their
/// `...WhenConnected` methods.
protocol ImmediateRequestClauses {
    func immediateSelect(_ selection: [SQLSelection]) -> Self
    func immediateAnnotated(with selection: [SQLSelection]) -> Self
    func immediateFilter(_ predicate: SQLExpression) -> Self
    func immediateFilter(_ keyFilter: KeyFilter) -> Self
    func immediateGroup(_ expressions: [SQLExpression]) -> Self
    func immediateHaving(_ predicate: SQLExpression) -> Self
    func immediateOrder(_ orderings: [SQLOrdering]) -> Self
}
