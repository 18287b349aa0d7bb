/// A link from the records of a table (the origin) to the records of
/// another table (the destination): ``BelongsToAssociation``,
/// ``HasOneAssociation``, ``HasManyAssociation``, the `through`
/// associations, and ``JoinAssociation`` to common table expressions.
///
/// An association is refined like a request (`filter`, `order`, `select`,
/// `aliased`, `forKey`), and used by the joining methods of requests:
///
/// ```swift
/// extension Book {
///     static let author = belongsTo(Author.self)
/// }
/// // SELECT "book".*, "author".* FROM "book"
/// // JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."country" = ?)
/// let request = Book.including(required: Book.author.filter(Column("country") == "FR"))
/// ```
public protocol Association<OriginRowDecoder, RowDecoder>: DerivableRequest, Sendable {
    /// The type of the origin records.
    associatedtype OriginRowDecoder
    /// The type of the destination records.
    associatedtype RowDecoder

    /// The tables the association goes through. Not for direct use.
    var _sqlAssociation: _SQLAssociation { get set }

    /// The association, with another key: the name of its scope in fetched
    /// rows, and of the property it feeds in decoded records.
    ///
    /// ```swift
    /// struct BookInfo: Decodable, FetchableRecord {
    ///     var book: Book
    ///     var writer: Author
    /// }
    /// let request = Book.including(required: Book.author.forKey("writer"))
    /// ```
    func forKey(_ key: String) -> Self
}

/// An association to one record at most: ``BelongsToAssociation``,
/// ``HasOneAssociation``, ``HasOneThroughAssociation``,
/// ``JoinAssociation``.
public protocol AssociationToOne<OriginRowDecoder, RowDecoder>: Association { }

/// An association to any number of records: ``HasManyAssociation``,
/// ``HasManyThroughAssociation``.
public protocol AssociationToMany<OriginRowDecoder, RowDecoder>: Association { }

extension AssociationToOne {
    /// The association, with another key (used as written).
    public func forKey(_ key: String) -> Self {
        var association = self
        association._sqlAssociation.destination.key = .fixedSingular(key)
        return association
    }
}

extension AssociationToMany {
    /// The association, with another key (used as written).
    public func forKey(_ key: String) -> Self {
        var association = self
        association._sqlAssociation.destination.key = .fixedPlural(key)
        return association
    }
}

extension Association {
    /// The association, with the key of a coding key: the name of the
    /// property of a decoded record.
    ///
    /// ```swift
    /// Book.author.forKey(CodingKeys.writer)
    /// ```
    public func forKey(_ codingKey: some CodingKey) -> Self {
        forKey(codingKey.stringValue)
    }

    /// The name of the destination table (or common table expression).
    public var databaseTableName: String {
        _sqlAssociation.destination.relation.tableName
    }

    /// The association, its destination relation changed by `update`.
    func mapDestination(_ update: (inout SQLRelation) -> Void) -> Self {
        var association = self
        update(&association._sqlAssociation.destination.relation)
        return association
    }
}
