extension FetchRequest {
    /// A request that runs the same query, and adapts the fetched rows with
    /// the adapter that `adapter` builds (see ``RowAdapter``).
    ///
    /// ```swift
    /// let request = SQLRequest<PlayerInfo>(sql: "SELECT player.*, team.* FROM player JOIN team ON ...")
    ///     .adapted { db in
    ///         let adapters = try splittingRowAdapters(columnCounts: [db.columns(in: "player").count])
    ///         return ScopeAdapter(["player": adapters[0], "team": adapters[1]])
    ///     }
    /// ```
    ///
    /// When the request adapts its rows already, `adapter` applies to the
    /// adapted rows, and only its own scopes are kept.
    ///
    /// - parameter adapter: A closure that builds the adapter, once per fetch.
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self> {
        AdaptedFetchRequest(base: self, adapter: adapter)
    }
}

/// A request that adapts the rows of another one: see
/// ``FetchRequest/adapted(_:)``.
public struct AdaptedFetchRequest<Base: FetchRequest> {
    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter
}

extension AdaptedFetchRequest: Sendable where Base: Sendable {}

extension AdaptedFetchRequest: FetchRequest {
    /// What the base request fetches.
    public typealias RowDecoder = Base.RowDecoder

    /// The base request's statement, with the adapter.
    ///
    /// - throws: A ``DatabaseError``, or what building the adapter throws.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        var prepared = try base.makePreparedRequest(db, forSingleResult: singleResult)
        let adapter = try self.adapter(db)
        if let first = prepared.adapter {
            prepared.adapter = ChainedRowAdapter(first: first, second: adapter)
        } else {
            prepared.adapter = adapter
        }
        return prepared
    }

    /// The number of rows of the base request: adapting rows does not
    /// change how many there are.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    /// The base request as a subquery: an adapter changes how rows are
    /// read, not the SQL.
    public var sqlSubquery: SQLSubquery { base.sqlSubquery }
}
