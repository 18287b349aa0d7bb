// SQL functions over association aggregates. As in GRDB, `??` and `cast`
// keep the name of the aggregate, `abs` and `length` drop it:
//
//     // SELECT "team".*, IFNULL(MAX("player"."score"), ?) AS "maxPlayerScore" ...
//     Team.annotated(with: Team.players.max(Column("score")) ?? 0)

extension AssociationAggregate {
    /// `IFNULL(aggregate, value)`: the aggregate, or `value` when it is NULL
    /// (the maximum of no record, for instance). It keeps the name of the
    /// aggregate.
    ///
    /// ```swift
    /// struct TeamInfo: Decodable, FetchableRecord {
    ///     var team: Team
    ///     var maxPlayerScore: Int   // 0 for a team without players
    /// }
    /// let request = Team.annotated(with: Team.players.max(Column("score")) ?? 0)
    /// ```
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        var aggregate = lhs.map { SQLExpression(.function("IFNULL", [$0, value])) }
        aggregate.key = lhs.key
        return aggregate
    }
}

/// `ABS(aggregate)`. The result has no name.
///
/// ```swift
/// Team.annotated(with: abs(Team.players.min(Column("score"))).forKey("minAbsoluteScore"))
/// ```
public func abs<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.map { abs($0) }
}

/// `CAST(aggregate AS storageClass)`. It keeps the name of the aggregate.
///
/// ```swift
/// // SELECT "team".*, CAST(AVG("player"."score") AS INTEGER) AS "averagePlayerScore" ...
/// Team.annotated(with: cast(Team.players.average(Column("score")), as: .integer))
/// ```
public func cast<RowDecoder>(
    _ aggregate: AssociationAggregate<RowDecoder>,
    as storageClass: Database.StorageClass)
-> AssociationAggregate<RowDecoder>
{
    var result = aggregate.map { cast($0, as: storageClass) }
    result.key = aggregate.key
    return result
}

/// `LENGTH(aggregate)`. The result has no name.
///
/// ```swift
/// Team.annotated(with: length(Team.players.max(Column("name"))).forKey("lastNameLength"))
/// ```
public func length<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.map { length($0) }
}
