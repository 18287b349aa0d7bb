/// An association defined by a joining condition, to or from a common
/// table expression or a table: see
/// ``TableRecord/association(to:on:)``.
///
/// ```swift
/// // WITH "best" AS (...)
/// // SELECT "team".*, "best".* FROM "team"
/// // LEFT JOIN "best" ON "team"."id" = "best"."teamId"
/// let association = Team.association(to: bestCTE) { team, best in
///     team[Column("id")] == best[Column("teamId")]
/// }
/// let request = Team.with(bestCTE).including(optional: association)
/// ```
public struct JoinAssociation<Origin, Destination>: AssociationToOne {
    /// The type of the origin records.
    public typealias OriginRowDecoder = Origin
    /// The type of the destination records.
    public typealias RowDecoder = Destination

    /// The tables the association goes through. Not for direct use.
    public var _sqlAssociation: _SQLAssociation

    init(_ sqlAssociation: _SQLAssociation) {
        _sqlAssociation = sqlAssociation
    }
}
