/// An association to one record through another to-one association: a
/// book has one country, through its author.
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Person.self)
///     static let country = hasOne(Country.self, through: author, using: Person.country)
/// }
/// // SELECT "book".*, "country".* FROM "book"
/// // LEFT JOIN "person" ON "person"."id" = "book"."authorId"
/// // LEFT JOIN "country" ON "country"."code" = "person"."countryCode"
/// let request = Book.including(optional: Book.country)
/// ```
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
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
