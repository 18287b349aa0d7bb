/// A request built with the query interface: a table, and what to select,
/// filter, order and limit. Its SQL is generated when it is fetched, and
/// its statement comes from the connection's statement cache.
///
/// ```swift
/// let request = Player
///     .filter(Column("score") > 1000)
///     .order(Column("name"))
///     .limit(10)
/// // SELECT * FROM "player" WHERE "score" > ? ORDER BY "name" LIMIT 10
/// let players = try request.fetchAll(db)
/// ```
///
/// Chaining follows GRDB: `filter` adds a condition (joined with `AND`),
/// `select` and `order` replace the previous selection or order, `limit`
/// replaces the previous limit.
public struct QueryInterfaceRequest<RowDecoder>: FetchRequest, Sendable {
    var relation: SQLRelation {
        didSet { memo = GeneratedSQLMemo(keepsSQL: !relation.runsClosuresWhenConnected) }
    }

    /// The SQL the request generated, for its next fetches; a changed
    /// relation starts a new memo.
    private(set) var memo = GeneratedSQLMemo()

    init(relation: SQLRelation) {
        self.relation = relation
    }

    /// The request's statement, with its arguments bound, from the
    /// connection's statement cache.
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid (an unknown
    ///   table or column, for instance).
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        if !relation.joins.isEmpty || !relation.prefetches.isEmpty {
            return try makeAssociationPreparedRequest(db, forSingleResult: singleResult)
        }
        let (sql, arguments) = try memo.sql(db, singleResult ? .selectForSingleResult : .select) {
            try relation.selectSQL(db, forSingleResult: singleResult)
        }
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        attachRegion(db, to: statement)
        return PreparedRequest(statement: statement)
    }

    /// The statement of a request with associations, the adapter that
    /// gives its rows the scopes of the included associations, and the
    /// fetch of its prefetched associations.
    private func makeAssociationPreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        let relation = self.relation
        let (sql, arguments, adapter) = try memo.sqlAndAdapter(db, singleResult ? .selectForSingleResult : .select) {
            let (sql, arguments) = try relation.selectSQL(db, forSingleResult: singleResult)
            guard !relation.joins.isEmpty else { return (sql, arguments, nil) }
            // SQLite's errors come before the adapter's, as in GRDB.
            _ = try db.cachedStatement(sql: sql)
            return (sql, arguments, try relation.joinedRowAdapter(db))
        }
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        attachRegion(db, to: statement)
        var prepared = PreparedRequest(statement: statement, adapter: adapter)
        if !relation.allPrefetches().isEmpty {
            prepared.supplementaryFetch = { db, rows, willExecute in
                try relation.prefetch(db, into: rows, willExecute: willExecute)
            }
        }
        return prepared
    }

    /// The request as a subquery: `Column("score") == request`,
    /// `request.contains(value)`, `request.exists()`.
    public var sqlSubquery: SQLSubquery { SQLSubquery(.relation(relation)) }

    /// The number of rows the request fetches: `SELECT COUNT(*) ...`, from
    /// a subquery when the request is grouped, limited, distinct or defines
    /// common table expressions, as GRDB counts them.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCount(_ db: Database) throws -> Int {
        let (sql, arguments) = try memo.sql(db, .count) { try relation.countSQL(db) }
        let statement = try db.cachedStatement(sql: sql)
        attachRegion(db, to: statement)
        return try Int.fetchOne(statement, arguments: arguments) ?? 0
    }

    /// Whether the request fetches no row.
    ///
    /// - throws: A ``DatabaseError``.
    public func isEmpty(_ db: Database) throws -> Bool {
        let (sql, arguments) = try memo.sql(db, .exists) {
            let (sql, arguments) = try relation.selectSQL(db)
            return ("SELECT EXISTS (" + sql + ")", arguments)
        }
        let statement = try db.cachedStatement(sql: sql)
        return try Bool.fetchOne(statement, arguments: arguments) == false
    }

    /// Deletes the rows the request selects, and returns how many.
    ///
    /// ```swift
    /// try Player.filter(Column("score") < 10).deleteAll(db)
    /// // DELETE FROM "player" WHERE "score" < ?
    /// ```
    ///
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        let (sql, arguments) = try relation.deleteSQL(db)
        return try db.countingChangedRows(inTable: relation.tableName) {
            try db.cachedStatement(sql: sql).execute(arguments: arguments)
        }.changes
    }

    // MARK: - Chaining

    // `select`, `filter` and `order` are those of the request protocols
    // (SelectionRequest, FilteredRequest, OrderedRequest), and only those, as
    // in GRDB: a concrete overload here would change which overload Swift
    // picks in an expression it can read as SQL or as a Swift `Bool`. The
    // protocols' methods apply them at once (see ImmediateRequestClauses).

    /// The request, selecting these values and decoding them as `type`.
    ///
    /// ```swift
    /// let names = try Player.select(Column("name"), as: String.self).fetchAll(db)
    /// ```
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: type)
    }

    /// The request, with `SELECT DISTINCT`.
    public func distinct() -> Self {
        var request = self
        request.relation.isDistinct = true
        return request
    }

    /// The request, with a condition resolved when the SQL is generated.
    func filter(_ filter: @escaping SQLRelation.Filter) -> Self {
        var request = self
        request.relation.filters.append(filter)
        return request
    }

    /// The request, without order.
    public func unordered() -> Self {
        var request = self
        request.relation = relation.unordered()
        return request
    }

    /// The request, limited to `limit` rows after skipping `offset` rows.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var request = self
        request.relation.limit = SQLRelation.Limit(limit: limit, offset: offset)
        return request
    }

    /// The request, fetching no row.
    public func none() -> Self {
        filter(false.sqlExpression)
    }

    /// The same request, decoding its rows as `type`.
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        QueryInterfaceRequest<T>(relation: relation)
    }
}
