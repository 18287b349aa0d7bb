// The request protocols, each declared on its own, in GRDB's order. Swift
// looks members up in the protocols of a type in the reverse order of its
// conformances, and the order in which it tries overloads decides, in
// expressions it can read two ways, which one it picks:
// `having(a || !(b == nil))` is read as GRDB reads it only in this order.
extension QueryInterfaceRequest: SelectionRequest {}
extension QueryInterfaceRequest: FilteredRequest {}
extension QueryInterfaceRequest: OrderedRequest {}
extension QueryInterfaceRequest: AggregatingRequest {}
extension QueryInterfaceRequest: JoinableRequest {}
extension QueryInterfaceRequest: TableRequest {}

extension QueryInterfaceRequest: DerivableRequest {
    /// The name of the table the request fetches from.
    public var databaseTableName: String { relation.tableName }

    /// The request, whose table is named by `alias`.
    public func _aliased(_ alias: TableAliasBase) -> Self {
        aliased(alias)
    }

    /// The request, selecting what `selection` returns when the request
    /// runs, instead of its current selection.
    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        immediateSelect([Self.deferredSelection(selection)]).runningClosuresWhenConnected()
    }

    /// The request, selecting what `selection` returns when the request
    /// runs, after its current selection.
    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        immediateAnnotated(with: [Self.deferredSelection(selection)]).runningClosuresWhenConnected()
    }

    /// The request, with one more condition, which `predicate` returns when
    /// the request runs.
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        filter { db in try predicate(db).sqlExpression }.runningClosuresWhenConnected()
    }

    /// The request, grouped by what `expressions` returns when the request runs.
    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self {
        var request = self
        request.relation.groupExpressions = nil
        request.relation.deferredGrouping = { db in try expressions(db).map(\.sqlExpression) }
        return request.runningClosuresWhenConnected()
    }

    /// The request, with one more `HAVING` condition, which `predicate`
    /// returns when the request runs.
    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        immediateHaving(SQLExpression(literal: SQL(element: .deferred { db in try predicate(db).sqlExpression.sql })))
            .runningClosuresWhenConnected()
    }

    /// The request, ordered by what `orderings` returns when the request runs.
    public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self {
        immediateOrder([SQLOrdering(.deferred { db in try orderings(db).map(\.sqlOrdering) })])
            .runningClosuresWhenConnected()
    }

    /// The request, generating its SQL at each fetch.
    private func runningClosuresWhenConnected() -> Self {
        var request = self
        request.relation.runsClosuresWhenConnected = true
        return request
    }

    /// A selection resolved when the SQL is generated.
    private static func deferredSelection(
        _ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> SQLSelection
    {
        SQLSelection(.deferred { db in try selection(db).map(\.sqlSelection) })
    }
}

extension QueryInterfaceRequest: ImmediateRequestClauses {
    // The clauses of the query interface requests. They are not public
    // methods of `QueryInterfaceRequest`: its `select`, `filter`, ... are
    // those of the request protocols only, as in GRDB, since a concrete
    // overload of the same method changes which overload Swift picks for an
    // argument it can read as SQL or as a Swift `Bool`:
    // `Player.all().having(!(Player.awards.max(Column("year")) == nil))`
    // must build `MAX(...) IS NOT NULL`, not bind `true`.

    func immediateSelect(_ selection: [SQLSelection]) -> Self {
        var request = self
        request.relation.selection = selection
        return request
    }

    func immediateAnnotated(with selection: [SQLSelection]) -> Self {
        var request = self
        request.relation.selection += selection
        return request
    }

    func immediateFilter(_ predicate: SQLExpression) -> Self {
        var request = self
        request.relation.filters.append { _ in predicate }
        return request
    }

    func immediateGroup(_ expressions: [SQLExpression]) -> Self {
        var request = self
        request.relation.groupExpressions = expressions
        request.relation.deferredGrouping = nil
        return request
    }

    func immediateHaving(_ predicate: SQLExpression) -> Self {
        var request = self
        request.relation.havingExpressions.append(predicate)
        return request
    }

    func immediateOrder(_ orderings: [SQLOrdering]) -> Self {
        var request = self
        request.relation.orderings = orderings
        request.relation.isReversed = false
        return request
    }

    func immediateFilter(_ keyFilter: KeyFilter) -> Self {
        var request = self
        request.relation.filtersUniqueKey = request.relation.filtersUniqueKey || keyFilter.matchesOneRow
        return request.filter(keyFilter.predicate)
    }
}
