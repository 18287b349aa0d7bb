/// An association from a record to the one record whose foreign key points
/// to it: a country has one demographic profile.
///
/// ```swift
/// struct Country: TableRecord {
///     static let profile = hasOne(Profile.self)
/// }
/// // SELECT "country".*, "profile".* FROM "country"
/// // LEFT JOIN "profile" ON "profile"."countryCode" = "country"."code"
/// let request = Country.including(optional: Country.profile)
/// ```
///
/// Its default key is the singularized destination table name.
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
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
