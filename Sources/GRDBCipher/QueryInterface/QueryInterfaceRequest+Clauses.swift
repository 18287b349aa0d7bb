// Chaining beyond select, filter and order, with GRDB's rules: `annotated`
// extends the selection, `group` replaces the grouping, `having` adds a
// condition (joined with `AND`), `reversed` reverses the current order,
// `with` adds or replaces a common table expression, `aliased` names the
// table.

extension QueryInterfaceRequest {
    // MARK: - Selection

    /// The request, selecting these values and decoding them as `type`.
    ///
    /// ```swift
    /// let names = try Player.all().select([Column("name")], as: String.self).fetchAll(db)
    /// ```
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: type)
    }

    /// The request, selecting this SQL and decoding it as `type`.
    public func select<T>(
        sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self
    ) -> QueryInterfaceRequest<T> {
        select(sql: sql, arguments: arguments).asRequest(of: type)
    }

    /// The request, selecting this SQL literal and decoding it as `type`.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(literal: sqlLiteral).asRequest(of: type)
    }

    /// The request, selecting these values after its current selection.
    ///
    /// ```swift
    /// // SELECT *, "score" + "bonus" AS "total" FROM "player"
    /// let request = Player.annotated(with: (Column("score") + Column("bonus")).forKey("total"))
    /// ```
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        var request = self
        request.relation.selection += selection.map({ $0.sqlSelection })
        return request
    }

    /// The request, selecting these values after its current selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }

    // MARK: - Grouping

    /// The request, grouped by these expressions instead of its current grouping.
    ///
    /// ```swift
    /// // SELECT "teamId", MAX("score") FROM "player" GROUP BY "teamId"
    /// let request = Player.select(Column("teamId"), max(Column("score"))).group(Column("teamId"))
    /// ```
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        var request = self
        request.relation.groupExpressions = expressions.map({ $0.sqlExpression })
        request.relation.deferredGrouping = nil
        return request
    }

    /// The request, grouped by these expressions instead of its current grouping.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// The request, grouped by this SQL instead of its current grouping.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The request, grouped by this SQL literal instead of its current grouping.
    public func group(literal sqlLiteral: SQL) -> Self {
        group([SQLExpression(literal: sqlLiteral)])
    }

    /// The request, with one more condition on its groups, joined to the
    /// others with `AND`.
    ///
    /// ```swift
    /// // ... GROUP BY "teamId" HAVING MIN("score") > ?
    /// let request = Player.group(Column("teamId")).having(min(Column("score")) > 1000)
    /// ```
    public func having(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.relation.havingExpressions.append(predicate.sqlExpression)
        return request
    }

    /// The request, with one more condition on its groups, in SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The request, with one more condition on its groups, as an SQL literal.
    public func having(literal sqlLiteral: SQL) -> Self {
        having(SQLExpression(literal: sqlLiteral))
    }

    // MARK: - Order

    /// The request, in the reverse of its current order: each term is
    /// reversed (`ASC` and `DESC`, `NULLS FIRST` and `NULLS LAST`). A request
    /// without an order stays unordered.
    ///
    /// ```swift
    /// // SELECT * FROM "player" ORDER BY "score" ASC, "name" DESC
    /// let request = Player.order(Column("score").desc, Column("name")).reversed()
    /// ```
    ///
    /// Fetching throws a ``DatabaseError`` if the order holds an SQL
    /// literal, which cannot be reversed (GRDB traps).
    public func reversed() -> Self {
        var request = self
        request.relation.isReversed.toggle()
        return request
    }

    // MARK: - Aliases and common table expressions

    /// The request, whose table is named by `alias`: its columns can be
    /// used in expressions, here and in subqueries. An alias with a name
    /// gives its name to the table.
    ///
    /// ```swift
    /// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
    /// let p = TableAlias(name: "p")
    /// let request = Player.aliased(p).filter(p[Column("score")] > 1000)
    /// ```
    public func aliased(_ alias: TableAliasBase) -> Self {
        var request = self
        request.relation.source.aliases.append(alias)
        return request
    }

    /// The request, with the `WITH` clause of a common table expression. One
    /// with the same name is replaced.
    ///
    /// ```swift
    /// // WITH "answer" AS (SELECT 42 AS value) SELECT * FROM "answer"
    /// let request = answer.all().with(answer)
    /// ```
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        var request = self
        request.relation = relation.with(cte.cte)
        return request
    }
}
