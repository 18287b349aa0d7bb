/// An association to many records through another association: a country
/// has many citizens, through its passports.
///
/// ```swift
/// struct Country: TableRecord {
///     static let passports = hasMany(Passport.self)
///     static let citizens = hasMany(Citizen.self, through: passports, using: Passport.citizen)
/// }
/// let request = Country.including(all: Country.citizens)
/// ```
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
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
