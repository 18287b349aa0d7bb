/// A type-erased request: it runs the query of the request it wraps, and
/// decodes the fetched rows as `RowDecoder`.
///
/// ```swift
/// let playerRequest = AnyFetchRequest(Player.filter(Column("score") > 1000))   // AnyFetchRequest<Player>
/// let players = try playerRequest.fetchAll(db)
/// let rows = try playerRequest.asRequest(of: Row.self).fetchAll(db)           // [Row]
/// ```
public struct AnyFetchRequest<RowDecoder>: FetchRequest {
    /// The wrapped request; whatever it decodes, its statement is the one run.
    private let base: any FetchRequest

    private init(base: any FetchRequest) {
        self.base = base
    }

    /// A request that runs `request`.
    public init(_ request: some FetchRequest<RowDecoder>) {
        self.init(base: request)
    }

    /// The same query, decoding the fetched rows as `type`.
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest<T>(base: base)
    }

    /// The wrapped request's statement and adapter.
    ///
    /// - throws: What the wrapped request throws.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        try base.makePreparedRequest(db, forSingleResult: singleResult)
    }

    /// The number of rows of the wrapped request.
    ///
    /// - throws: What the wrapped request throws.
    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    /// The wrapped request as a subquery.
    public var sqlSubquery: SQLSubquery { base.sqlSubquery }
}
