/// What a query-interface request reads, and how: the table and its
/// aliases, the selection, the conditions, the grouping, the order, the
/// limit, and the common table expressions it defines. Conditions that need
/// the database (a primary key, for `filter(key:)`) are resolved when the
/// SQL is generated, once per fetch.
struct SQLRelation: Sendable {
    /// A condition, resolved when the SQL is generated.
    typealias Filter = @Sendable (Database) throws -> SQLExpression

    struct Limit: Sendable {
        var limit: Int
        var offset: Int?
    }

    var source: SQLSource
    var selection: [SQLSelection]
    var filters: [Filter] = []
    /// The order, as given; `isReversed` reverses each term when generating.
    var orderings: [SQLOrdering] = []
    var isReversed = false
    /// `GROUP BY` expressions; nil when the request is not grouped.
    var groupExpressions: [SQLExpression]?
    /// `GROUP BY` expressions known when the request runs
    /// (``AggregatingRequest/groupWhenConnected(_:)``); they replace
    /// `groupExpressions` then.
    var deferredGrouping: (@Sendable (Database) throws -> [SQLExpression])?
    /// Whether clauses come from closures of the user, called each time
    /// the request runs (`filterWhenConnected`...).
    var runsClosuresWhenConnected = false
    /// `HAVING` conditions, joined with `AND`.
    var havingExpressions: [SQLExpression] = []
    var isDistinct = false
    var limit: Limit?
    /// Common table expressions, in the order they were given; one per name.
    var ctes: [SQLCTE] = []
    /// Whether a condition matches one unique key: such a request fetches
    /// one row at most, and `fetchOne` needs no `LIMIT 1` (as in GRDB).
    var filtersUniqueKey = false
    /// The tables joined by associations, in the order they were joined;
    /// one per association key.
    var joins: [SQLJoin] = []
    /// The to-many associations fetched after the rows of the relation
    /// (`including(all:)`), in the order they were given; one per key.
    var prefetches: [SQLPrefetch] = []

    init(tableName: String, selection: [SQLSelection]) {
        self.source = SQLSource(tableName: tableName)
        self.selection = selection
    }

    /// The table (or common table expression) the relation reads.
    var tableName: String { source.tableName }

    /// The relation, with one more common table expression; one with the
    /// same name (compared case-insensitively) is replaced.
    func with(_ cte: SQLCTE) -> SQLRelation {
        var relation = self
        let name = cte.tableName.lowercased()
        if let index = relation.ctes.firstIndex(where: { $0.tableName.lowercased() == name }) {
            relation.ctes[index] = cte
        } else {
            relation.ctes.append(cte)
        }
        return relation
    }

    /// The relation without its order.
    func unordered() -> SQLRelation {
        var relation = self
        relation.orderings = []
        relation.isReversed = false
        if !joins.isEmpty {
            relation.joins = joins.map { join in
                var join = join
                join.relation = join.relation.unordered()
                return join
            }
        }
        return relation
    }

    /// The orderings as they must be written.
    func resolvedOrderings() throws -> [SQLOrdering] {
        guard isReversed else { return orderings }
        return try orderings.map { try $0.reversedOrThrow() }
    }
}

extension SQLRelation: SQLSelectStatement {
    /// Writes the `SELECT` statement of the relation, as a subquery does.
    func writeSelectStatement(into sql: inout String, _ context: SQLGenerationContext) throws {
        try writeSelect(into: &sql, context)
    }
}
