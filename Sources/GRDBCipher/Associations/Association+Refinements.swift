// Refining the destination of an association as a request is refined:
// conditions go to the `ON` clause of its join, its selection and order
// to those of the joined request.

extension Association {
    // MARK: - Conditions

    // `filter` is that of FilteredRequest, and only that, as in GRDB: an
    // overload declared here would change which overload Swift picks in an
    // expression it can read as SQL or as a Swift `Bool`
    // (`Team.having(!(Team.players.filter(...).max(...) == nil))`). The
    // condition goes to the `ON` clause through `filterWhenConnected(_:)`:
    //
    //     // JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."active" = 1)
    //     Player.joining(required: Player.team.filter(Column("active") == true))

    // MARK: - Selection

    /// The association, selecting these values of the destination instead
    /// of its current selection.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return mapDestination { $0.selection = selection }
    }

    /// The association, selecting these values of the destination instead
    /// of its current selection.
    ///
    /// ```swift
    /// // SELECT "book".*, "author"."name" FROM "book" JOIN "author" ON ...
    /// Book.including(required: Book.author.select(Column("name")))
    /// ```
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// The association, selecting this SQL instead of its current selection.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The association, selecting this SQL literal instead of its current
    /// selection.
    public func select(literal sqlLiteral: SQL) -> Self {
        select([SQLSelection(literal: sqlLiteral)])
    }

    /// The association, selecting these values after its current selection.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return mapDestination { $0.selection += selection }
    }

    /// The association, selecting these values after its current selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }

    // MARK: - Order

    /// The association, ordered by these terms instead of its current
    /// order. A joined request is ordered by its own terms first, then by
    /// those of its associations.
    ///
    /// ```swift
    /// // ... ORDER BY "book"."year", "author"."name"
    /// Book.including(required: Book.author.order(Column("name"))).order(Column("year"))
    /// ```
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        let orderings = orderings.map(\.sqlOrdering)
        return mapDestination {
            $0.orderings = orderings
            $0.isReversed = false
        }
    }

    /// The association, ordered by these terms instead of its current order.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// The association, ordered by this SQL instead of its current order.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The association, ordered by this SQL literal instead of its current order.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([SQLOrdering(literal: sqlLiteral)])
    }

    /// The association, in the reverse of its current order.
    public func reversed() -> Self {
        mapDestination { $0.isReversed.toggle() }
    }

    /// The association, without order.
    public func unordered() -> Self {
        mapDestination { $0 = $0.unordered() }
    }

    // MARK: - Aliases and common table expressions

    /// The association, whose destination table is named by `alias`: its
    /// columns can be used in the conditions and order of the request that
    /// joins it.
    ///
    /// ```swift
    /// // SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
    /// // WHERE "book"."year" > "author"."deathYear"
    /// let author = TableAlias()
    /// let request = Book
    ///     .joining(required: Book.author.aliased(author))
    ///     .filter(Column("year") > author[Column("deathYear")])
    /// ```
    public func aliased(_ alias: TableAliasBase) -> Self {
        mapDestination { $0.source.aliases.append(alias) }
    }

    /// The association, with the `WITH` clause of a common table
    /// expression, for the requests that join it.
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        mapDestination { $0 = $0.with(cte.cte) }
    }

    /// The association, with `SELECT DISTINCT` for its prefetched records
    /// (`including(all:)`).
    public func distinct() -> Self {
        mapDestination { $0.isDistinct = true }
    }
}

extension Association where RowDecoder: TableRecord {
    /// The association, ordered by a term of the destination record's components.
    public func order(_ ordering: (RowDecoder.DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// The association, ordered by terms of the destination record's components.
    public func order(
        _ orderings: (RowDecoder.DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self
    {
        try order(orderings(RowDecoder.databaseComponents))
    }

    /// The association, selecting a value of the destination record's components.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select([selection(RowDecoder.databaseComponents)])
    }

    /// The association, selecting values of the destination record's components.
    public func select(
        _ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self
    {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// The association, selecting a value of the destination record's
    /// components after its current selection.
    public func annotated(
        with selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self
    {
        try annotated(with: [selection(RowDecoder.databaseComponents)])
    }

    /// The association, selecting values of the destination record's
    /// components after its current selection.
    public func annotated(
        with selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self
    {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }
}
