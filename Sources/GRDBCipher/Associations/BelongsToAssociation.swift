/// An association from a record to the record its foreign key points to:
/// a book belongs to its author.
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Author.self)
/// }
/// // SELECT "book".*, "author".* FROM "book"
/// // JOIN "author" ON "author"."id" = "book"."authorId"
/// let request = Book.including(required: Book.author)
/// ```
///
/// The foreign key comes from the schema (the `book` table has one foreign
/// key to `author`), or from the `ForeignKey` given to
/// `TableRecord/belongsTo(_:key:using:)`. Its default key is the
/// singularized destination table name.
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
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
