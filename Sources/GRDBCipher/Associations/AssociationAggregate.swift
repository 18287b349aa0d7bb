/// A value computed from the records of a to-many association, for each
/// origin record: a count, a minimum, a sum... Annotate a request with it,
/// or filter a request on it.
///
/// ```swift
/// struct TeamInfo: Decodable, FetchableRecord {
///     var team: Team
///     var playerCount: Int
/// }
/// // SELECT "team".*, COUNT(DISTINCT "player"."id") AS "playerCount"
/// // FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id"
/// // GROUP BY "team"."id"
/// let infos = try Team.annotated(with: Team.players.count).asRequest(of: TeamInfo.self).fetchAll(db)
///
/// // ... HAVING COUNT(DISTINCT "player"."id") = 0
/// let emptyTeams = try Team.having(Team.players.isEmpty).fetchAll(db)
/// ```
///
/// The request joins the association with `LEFT JOIN`, and groups its rows
/// by the primary key of its table (its rowid when it has one).
public struct AssociationAggregate<RowDecoder>: Sendable {
    /// Joins what the aggregate needs to a relation, and returns its expression.
    let prepare: @Sendable (inout SQLRelation) -> AggregateExpression

    /// The name of the selected value: `playerCount`, `maxPlayerScore`...
    var key: String?

    init(key: String?, prepare: @escaping @Sendable (inout SQLRelation) -> AggregateExpression) {
        self.key = key
        self.prepare = prepare
    }

    /// The aggregate, selected under another name.
    ///
    /// ```swift
    /// Team.annotated(with: Team.players.count.forKey("size"))
    /// ```
    public func forKey(_ key: String) -> Self {
        var aggregate = self
        aggregate.key = key
        return aggregate
    }

    /// The aggregate, selected under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> Self {
        forKey(key.stringValue)
    }

    /// The aggregate, its expression transformed; it has no name.
    func map(_ transform: @escaping @Sendable (SQLExpression) -> SQLExpression) -> Self {
        let prepare = self.prepare
        return AssociationAggregate(key: nil) { relation in
            AggregateExpression(expression: transform(prepare(&relation).expression), negation: nil)
        }
    }

    /// Two aggregates combined into one; it has no name.
    static func combine(
        _ lhs: Self, _ rhs: Self,
        _ operation: @escaping @Sendable (SQLExpression, SQLExpression) -> SQLExpression) -> Self
    {
        AssociationAggregate(key: nil) { relation in
            let left = lhs.prepare(&relation).expression
            let right = rhs.prepare(&relation).expression
            return AggregateExpression(expression: operation(left, right), negation: nil)
        }
    }
}

extension AssociationToMany {
    /// The number of associated records: `COUNT(DISTINCT child.id)`, named
    /// `<key>Count` (`playerCount`).
    public var count: AssociationAggregate<OriginRowDecoder> {
        makeAggregate(key: "\(singularKey)Count") { counted in
            AggregateExpression(
                expression: SQLExpression(.aggregate("COUNT", [SQLExpression(literal: counted)], distinct: true, ordering: nil, filter: nil)),
                negation: nil)
        }
    }

    /// Whether there is no associated record: `COUNT(DISTINCT child.id) = 0`,
    /// named `hasNo<Key>` (`hasNoPlayer`). Its negation is `> 0`.
    public var isEmpty: AssociationAggregate<OriginRowDecoder> {
        makeAggregate(key: "hasNo\(singularKey.uppercasingFirstCharacter)") { counted in
            let count = SQL(sql: "COUNT(DISTINCT ") + counted + SQL(sql: ")")
            return AggregateExpression(
                expression: SQLExpression(literal: count + SQL(sql: " = 0")),
                negation: SQLExpression(literal: count + SQL(sql: " > 0")))
        }
    }

    /// The average of an expression of the associated records: `AVG(...)`,
    /// named `average<Key><Column>` for a column.
    public func average(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        function("AVG", expression, key: { "average\($0.uppercasingFirstCharacter)\($1.uppercasingFirstCharacter)" })
    }

    /// The average of an expression of the associated records' components:
    /// `AVG(...)`, named `average<Key><Column>` for a column.
    ///
    /// ```swift
    /// Team.having(Team.players.average { $0.score } >= 1000)
    /// ```
    ///
    /// - throws: What `expression` throws.
    public func average(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
    ) rethrows -> AssociationAggregate<OriginRowDecoder>
    where RowDecoder: TableRecord
    {
        try average(expression(RowDecoder.databaseComponents))
    }

    /// The maximum of an expression of the associated records: `MAX(...)`,
    /// named `max<Key><Column>` for a column.
    public func max(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        function("MAX", expression, key: { "max\($0.uppercasingFirstCharacter)\($1.uppercasingFirstCharacter)" })
    }

    /// The maximum of an expression of the associated records' components:
    /// `MAX(...)`, named `max<Key><Column>` for a column.
    ///
    /// ```swift
    /// Team.annotated(with: Team.players.max { $0.score })   // maxPlayerScore
    /// ```
    ///
    /// - throws: What `expression` throws.
    public func max(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
    ) rethrows -> AssociationAggregate<OriginRowDecoder>
    where RowDecoder: TableRecord
    {
        try max(expression(RowDecoder.databaseComponents))
    }

    /// The minimum of an expression of the associated records: `MIN(...)`,
    /// named `min<Key><Column>` for a column.
    public func min(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        function("MIN", expression, key: { "min\($0.uppercasingFirstCharacter)\($1.uppercasingFirstCharacter)" })
    }

    /// The minimum of an expression of the associated records' components:
    /// `MIN(...)`, named `min<Key><Column>` for a column.
    ///
    /// ```swift
    /// Team.annotated(with: Team.players.min { $0.score })   // minPlayerScore
    /// ```
    ///
    /// - throws: What `expression` throws.
    public func min(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
    ) rethrows -> AssociationAggregate<OriginRowDecoder>
    where RowDecoder: TableRecord
    {
        try min(expression(RowDecoder.databaseComponents))
    }

    /// The sum of an expression of the associated records: `SUM(...)`,
    /// named `<key><Column>Sum` for a column.
    public func sum(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        function("SUM", expression, key: { "\($0)\($1.uppercasingFirstCharacter)Sum" })
    }

    /// The sum of an expression of the associated records' components:
    /// `SUM(...)`, named `<key><Column>Sum` for a column.
    ///
    /// ```swift
    /// Team.annotated(with: Team.players.sum { $0.score })   // playerScoreSum
    /// ```
    ///
    /// - throws: What `expression` throws.
    public func sum(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
    ) rethrows -> AssociationAggregate<OriginRowDecoder>
    where RowDecoder: TableRecord
    {
        try sum(expression(RowDecoder.databaseComponents))
    }

    /// The total of an expression of the associated records: `TOTAL(...)`
    /// (0 without records), named `<key><Column>Sum` for a column, as in GRDB.
    public func total(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        function("TOTAL", expression, key: { "\($0)\($1.uppercasingFirstCharacter)Sum" })
    }

    /// The total of an expression of the associated records' components:
    /// `TOTAL(...)`, 0 without records, named `<key><Column>Sum` for a column.
    ///
    /// ```swift
    /// Team.annotated(with: Team.players.total { $0.score })   // playerScoreSum
    /// ```
    ///
    /// - throws: What `expression` throws.
    public func total(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
    ) rethrows -> AssociationAggregate<OriginRowDecoder>
    where RowDecoder: TableRecord
    {
        try total(expression(RowDecoder.databaseComponents))
    }

    private var singularKey: String { _sqlAssociation.destination.key.singularName }

    private func function(
        _ name: String, _ expression: some SQLSpecificExpressible,
        key: (_ association: String, _ column: String) -> String)
    -> AssociationAggregate<OriginRowDecoder>
    {
        let argument = expression.sqlExpression
        let column = (expression as? any ColumnExpression)?.name
        return makeAggregate(key: column.map { key(singularKey, $0) }) { _, alias in
            AggregateExpression(
                expression: SQLExpression(.aggregate(
                    name, [SQLExpression(.qualified(argument, alias))], distinct: false, ordering: nil, filter: nil)),
                negation: nil)
        }
    }

    private func makeAggregate(
        key: String?, _ build: @escaping @Sendable (_ countedKey: SQL) -> AggregateExpression)
    -> AssociationAggregate<OriginRowDecoder>
    {
        makeAggregate(key: key) { countedKey, _ in build(countedKey) }
    }

    /// An aggregate of the association: the request joins it with `LEFT
    /// JOIN`, named by a new alias, and is grouped by its primary key.
    private func makeAggregate(
        key: String?,
        _ build: @escaping @Sendable (_ countedKey: SQL, _ alias: TableAliasBase) -> AggregateExpression)
    -> AssociationAggregate<OriginRowDecoder>
    {
        let association = _sqlAssociation
        return AssociationAggregate(key: key) { relation in
            let alias = TableAliasBase(name: nil)
            var aliased = association
            aliased.destination.relation.source.aliases.append(alias)
            relation = relation.appending(aliased.join(kind: .optional, isIncluded: false))
            if relation.groupExpressions == nil {
                relation.groupExpressions = [SQLExpression(literal: fastPrimaryKey(of: relation.tableName))]
            }
            let counted = SQL(element: .qualified(fastPrimaryKey(of: association.destination.relation.tableName), alias))
            return build(counted, alias)
        }
    }
}

/// The expression of an aggregate, and the expression of its negation
/// when it is not `NOT expression`.
struct AggregateExpression {
    var expression: SQLExpression
    var negation: SQLExpression?
}

/// The columns that identify the rows of a table fastest, read when the
/// SQL is generated: the rowid when the table has one (`"rowid"`, or the
/// column that aliases it), the primary key of a `WITHOUT ROWID` table
/// otherwise. Aggregates count and group rows with them, as GRDB does.
private func fastPrimaryKey(of tableName: String) -> SQL {
    SQL(element: .deferred { db in
        let primaryKey = try db.primaryKey(tableName)
        return (primaryKey.fastPrimaryKeyColumn.map { [$0] } ?? primaryKey.columns)
            .map { Column($0).sqlExpression.sql }
            .joined(separator: ", ")
    })
}

// The closure forms of the aggregates (`Team.annotated(with: Team.players.max { $0.score })`)
// are declared above, each right after its value form, as in GRDB: Swift tries overloads in
// the order it finds them, and reads `!(Team.players.filter(...).max(...) == nil)` as GRDB
// does (an aggregate, not a Swift `Bool`) only in that order.

extension AssociationToMany where RowDecoder: TableRecord {
    /// The database components of the associated record (its `Columns`
    /// by default).
    ///
    /// ```swift
    /// let score: (HasManyAssociation<Team, Player>.DatabaseComponents) -> Column = { $0.score }
    /// ```
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}
