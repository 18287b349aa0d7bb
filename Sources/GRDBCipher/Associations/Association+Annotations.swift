// `annotated(withRequired:)` and `annotated(withOptional:)`: the selection
// of an association, appended to the selection of the request, which joins
// the association without including it.
//
//     // SELECT "book".*, "author"."name" AS "authorName" FROM "book"
//     // JOIN "author" ON "author"."id" = "book"."authorId"
//     Book.annotated(withRequired: Book.author.select(Column("name").forKey("authorName")))

extension JoinableRequest where Self: SelectionRequest {
    /// The request, selecting the columns of an association after its
    /// own, and keeping only the rows that have an associated row (`JOIN`).
    ///
    /// The associated columns are decoded at the same level as the
    /// columns of the request, not in a scope. Requests and associations
    /// both have it:
    ///
    /// ```swift
    /// struct BookInfo: Decodable, FetchableRecord {
    ///     var book: Book
    ///     var authorName: String
    /// }
    /// // SELECT "book".*, "author"."name" AS "authorName" FROM "book"
    /// // JOIN "author" ON "author"."id" = "book"."authorId"
    /// let request = Book.all()
    ///     .annotated(withRequired: Book.author.select(Column("name").forKey("authorName")))
    ///     .asRequest(of: BookInfo.self)
    ///
    /// // Libraries, and their books with the name of their author.
    /// Library.including(all: Library.books.annotated(withRequired: Book.author.select(Column("name"))))
    /// ```
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        annotated(with: association._sqlAssociation, kind: .required)
    }

    /// The request, selecting the columns of an association after its
    /// own, NULL when there is no associated row (`LEFT JOIN`).
    ///
    /// ```swift
    /// // SELECT "book".*, "author"."name" AS "authorName" FROM "book"
    /// // LEFT JOIN "author" ON "author"."id" = "book"."authorId"
    /// let request = Book.all()
    ///     .annotated(withOptional: Book.author.select(Column("name").forKey("authorName")))
    /// ```
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        annotated(with: association._sqlAssociation, kind: .optional)
    }

    /// Joins the association, not included, under a new alias, and selects
    /// its selection, qualified with this alias, after the current one.
    private func annotated(with association: _SQLAssociation, kind: SQLJoin.Kind) -> Self {
        let alias = TableAliasBase(name: nil)
        var aliased = association
        aliased.destination.relation.source.aliases.append(alias)
        let selection = aliased.destination.relation.selection.map { SQLSelection(.qualified($0, alias)) }
        let join = aliased.join(kind: kind, isIncluded: false)
        return mapRelation { relation in
            relation = relation.appending(join)
            relation.selection += selection
        }
    }
}

extension TableRecord {
    /// A request of the table, selecting the columns of an association
    /// after the record's, for the rows that have an associated row.
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().annotated(withRequired: association)
    }

    /// A request of the table, selecting the columns of an association
    /// after the record's, NULL when there is no associated row.
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().annotated(withOptional: association)
    }
}

extension Table {
    /// A request of the table, selecting the columns of an association
    /// after its own, for the rows that have an associated row.
    public func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().annotated(withRequired: association)
    }

    /// A request of the table, selecting the columns of an association
    /// after its own, NULL when there is no associated row.
    public func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().annotated(withOptional: association)
    }
}
