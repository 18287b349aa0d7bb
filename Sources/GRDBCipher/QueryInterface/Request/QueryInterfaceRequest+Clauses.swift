// Chaining beyond the methods of the request protocols, with GRDB's rules:
// `select(_:as:)` changes the decoded type, `reversed` reverses the current
// order, `with` adds or replaces a common table expression, `aliased` names
// the table. (`annotated` extends the selection, `group` replaces the
// grouping and `having` adds a condition joined with `AND`: see
// ImmediateRequestClauses.)

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
