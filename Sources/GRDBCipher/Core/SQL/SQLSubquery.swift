/// A request used inside another one: the `SELECT` statement of a
/// query-interface request or of an SQL literal.
///
/// ```swift
/// // SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player")
/// let maxScore = Player.select(max(Column("score")))
/// let request = Player.filter(Column("score") == maxScore)
/// ```
public struct SQLSubquery: Sendable {
    enum Impl: Sendable {
        /// An SQL literal, as written.
        case literal(SQL)
        /// A query-interface request.
        case relation(any SQLSelectStatement)
        /// Not a request: the test that the table of the alias being
        /// written has a row (``TableAlias/exists``). It travels as a
        /// subquery because only the generation context knows that table.
        case existenceTest(negated: Bool)
    }

    let impl: Impl

    init(_ impl: Impl) {
        self.impl = impl
    }

    /// Writes the statement, without parentheses. A request gets a context
    /// of its own, child of `context`, so that it can refer to the tables of
    /// the enclosing request.
    func write(into sql: inout String, _ context: SQLGenerationContext) throws {
        switch impl {
        case .literal(let literal):
            try literal.write(into: &sql, context.subqueryContext(source: nil))
        case .relation(let relation):
            try relation.writeSelectStatement(into: &sql, context.subqueryContext(source: relation.source))
        case .existenceTest(let negated):
            try context.writeExistenceTest(negated: negated, into: &sql)
        }
    }
}

/// A request that writes a `SELECT` statement: the query interface's
/// relations. Core declares it so that a subquery can hold a request of
/// the layer above without naming its type.
protocol SQLSelectStatement: Sendable {
    /// The table of the statement's unqualified columns.
    var source: SQLSource { get }

    /// Writes the statement, without parentheses, in `context`.
    func writeSelectStatement(into sql: inout String, _ context: SQLGenerationContext) throws
}

/// A value that can be used as a subquery: requests.
///
/// A subquery is an expression (`Column("score") == request`), can test
/// whether it contains a value (`request.contains(Column("id"))`), or
/// whether it returns any row (`request.exists()`).
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The value as a subquery.
    var sqlSubquery: SQLSubquery { get }
}

extension SQLSubqueryable {
    /// The subquery as an expression, parenthesized: `(SELECT ...)`.
    public var sqlExpression: SQLExpression { SQLExpression(.subquery(sqlSubquery)) }

    /// Whether the subquery returns the value: `value IN (SELECT ...)`.
    ///
    /// ```swift
    /// // SELECT * FROM "team" WHERE "id" IN (SELECT "teamId" FROM "player")
    /// let teamIds = Player.select(Column("teamId"))
    /// let request = Team.filter(teamIds.contains(Column("id")))
    /// ```
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        let collection = SQL(sql: "(") + SQL(element: .subquery(sqlSubquery)) + SQL(sql: ")")
        return SQLExpression(.inCollection(element.sqlExpression, collection, negated: false))
    }

    /// Whether the subquery returns at least one row: `EXISTS (SELECT ...)`.
    ///
    /// ```swift
    /// // SELECT * FROM "team" WHERE EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")
    /// let team = TableAlias()
    /// let players = Player.filter(Column("teamId") == team[Column("id")])
    /// let request = Team.aliased(team).filter(players.exists())
    /// ```
    public func exists() -> SQLExpression {
        SQLExpression(.exists(sqlSubquery, negated: false))
    }
}

// A subquery is itself subqueryable: an expression, a selection, an
// ordering, that can test whether it contains a value or has rows.
extension SQLSubquery: SQLSubqueryable {
    /// The subquery itself.
    ///
    /// ```swift
    /// let subquery = Player.select(max(Column("score"))).sqlSubquery
    /// // SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player")
    /// let request = Player.filter(Column("score") == subquery)
    /// ```
    @available(*, deprecated, message: "Already SQLSubquery")
    public var sqlSubquery: SQLSubquery { self }
}
