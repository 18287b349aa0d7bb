/// An association from a record to the records whose foreign key points to
/// it: an author has many books.
///
/// ```swift
/// struct Author: TableRecord {
///     static let books = hasMany(Book.self)
/// }
/// // SELECT * FROM "author"
/// // SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (?, ?, ...)
/// let request = Author.including(all: Author.books)
/// ```
///
/// Its default key is the pluralized destination table name.
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
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
