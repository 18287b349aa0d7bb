// Requests annotated with, or filtered on, association aggregates (the
// `having(_:)` of requests is in RequestProtocols/DerivableRequest.swift).
// Requests and associations both have these methods: on an association,
// they refine its destination, for the records that `including(all:)`
// prefetches.
//
//     // SELECT "player".*, COUNT(DISTINCT "award"."id") AS "awardCount", "player"."teamId" AS "grdb_teamId"
//     // FROM "player" LEFT JOIN "award" ON "award"."playerId" = "player"."id"
//     // WHERE "player"."teamId" IN (?, ?) GROUP BY "player"."id"
//     Team.including(all: Team.players.annotated(with: Player.awards.count))

extension DerivableRequest {
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
    /// selection, each under its name (an aggregate built with operators
    /// has none: give it one with `forKey(_:)`).
    ///
    /// ```swift
    /// let aggregates = [Team.players.count, Team.players.max(Column("score"))]
    /// let request = Team.all().annotated(with: aggregates)
    /// ```
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        mapRelation { relation in
            for aggregate in aggregates {
                let expression = aggregate.prepare(&relation).expression
                if let key = aggregate.key {
                    relation.selection.append(expression.forKey(key))
                } else {
                    relation.selection.append(expression.sqlSelection)
                }
            }
        }
    }
}

extension TableRecord {
    /// A request of the table, selecting association aggregates after the
    /// record's columns (see `DerivableRequest/annotated(with:)-(AssociationAggregate<RowDecoder>...)`).
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
