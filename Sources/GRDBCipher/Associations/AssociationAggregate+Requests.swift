// Requests annotated with, or filtered on, association aggregates.

extension QueryInterfaceRequest {
    /// The request, selecting association aggregates after its current
    /// selection, each under its name.
    ///
    /// ```swift
    /// // SELECT "team".*, COUNT(DISTINCT "player"."id") AS "playerCount" FROM "team"
    /// // LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id"
    /// let request = Team.all().annotated(with: Team.players.count)
    /// ```
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        annotated(with: aggregates)
    }

    /// The request, selecting association aggregates after its current
    /// selection, each under its name.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        var request = self
        for aggregate in aggregates {
            let expression = aggregate.prepare(&request.relation).expression
            if let key = aggregate.key {
                request.relation.selection.append(expression.forKey(key))
            } else {
                request.relation.selection.append(expression.sqlSelection)
            }
        }
        return request
    }

    /// The request, with one more condition on an association aggregate in
    /// its `HAVING` clause.
    ///
    /// ```swift
    /// // ... GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") = 0
    /// let request = Team.all().having(Team.players.isEmpty)
    /// ```
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> Self {
        var request = self
        let expression = predicate.prepare(&request.relation).expression
        request.relation.havingExpressions.append(expression)
        return request
    }
}

extension TableRecord {
    /// A request of the table, selecting association aggregates after the
    /// record's columns (see ``QueryInterfaceRequest/annotated(with:)-(AssociationAggregate<RowDecoder>...)``).
    public static func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// A request of the table, selecting association aggregates after the
    /// record's columns.
    public static func annotated(with aggregates: [AssociationAggregate<Self>]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// A request of the table, filtered on an association aggregate.
    ///
    /// ```swift
    /// let prolificAuthors = Author.having(Author.books.count >= 20)
    /// ```
    public static func having(_ predicate: AssociationAggregate<Self>) -> QueryInterfaceRequest<Self> {
        all().having(predicate)
    }
}

extension Table {
    /// A request of the table, selecting association aggregates after its
    /// columns.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// A request of the table, selecting association aggregates after its
    /// columns.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// A request of the table, filtered on an association aggregate.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().having(predicate)
    }
}
