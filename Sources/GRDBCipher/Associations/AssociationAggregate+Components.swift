// Association aggregates of an expression of the associated record's
// database components (its `Columns` by default), written as a closure:
//
//     struct Player: TableRecord {
//         enum Columns {
//             static let score = Column("score")
//         }
//     }
//     // SELECT "team".*, MAX("player"."score") AS "maxPlayerScore" ...
//     Team.annotated(with: Team.players.max { $0.score })

extension AssociationToMany where RowDecoder: TableRecord {
    /// The database components of the associated record (its `Columns`
    /// by default).
    ///
    /// ```swift
    /// let score: (HasManyAssociation<Team, Player>.DatabaseComponents) -> Column = { $0.score }
    /// ```
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// The average of an expression of the associated records' components:
    /// `AVG(...)`, named `average<Key><Column>` for a column.
    ///
    /// ```swift
    /// Team.having(Team.players.average { $0.score } >= 1000)
    /// ```
    ///
    /// - throws: What `expression` throws.
    public func average(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try average(expression(RowDecoder.databaseComponents))
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
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try max(expression(RowDecoder.databaseComponents))
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
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try min(expression(RowDecoder.databaseComponents))
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
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try sum(expression(RowDecoder.databaseComponents))
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
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try total(expression(RowDecoder.databaseComponents))
    }
}
