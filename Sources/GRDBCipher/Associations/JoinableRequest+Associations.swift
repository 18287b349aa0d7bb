// The joining methods of every joinable request (requests and associations),
// for code written against the request protocols:
//
//     extension DerivableRequest<Author> {
//         func withBooks() -> Self { including(all: Author.books) }
//     }

extension JoinableRequest {
    /// The request, with the records of a to-many association prefetched:
    /// after the rows of the request, one more request fetches the
    /// associated rows of all of them, and each row gets its own, read by
    /// a Decodable record from the property named by the association key.
    ///
    /// ```swift
    /// struct AuthorInfo: Decodable, FetchableRecord {
    ///     var author: Author
    ///     var books: [Book]
    /// }
    /// // SELECT * FROM "author"
    /// // SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (?, ?, ...)
    /// let infos = try Author.all().including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
    ///
    /// // Authors, their books, and the chapters of each book.
    /// Author.including(all: Author.books.including(all: Book.chapters))
    /// ```
    ///
    /// Cursors do not support such requests: fetching one throws.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(all: association._sqlAssociation)
    }

    /// The request, with the association joined, keeping the rows it
    /// finds: `LEFT JOIN`, the associated columns are selected.
    ///
    /// ```swift
    /// // SELECT "player".*, "team".* FROM "player"
    /// // LEFT JOIN "team" ON "team"."id" = "player"."teamId"
    /// let request = Player.all().including(optional: Player.team)
    /// ```
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(optional: association._sqlAssociation)
    }

    /// The request, with the association joined, keeping only the rows
    /// that have an associated row: `JOIN`, the associated columns are
    /// selected. On an association, it chains associations:
    ///
    /// ```swift
    /// // SELECT "book".*, "person".*, "country".* FROM "book"
    /// // JOIN "person" ON "person"."id" = "book"."authorId"
    /// // LEFT JOIN "country" ON "country"."code" = "person"."countryCode"
    /// Book.including(required: Book.author.including(optional: Person.country))
    /// ```
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(required: association._sqlAssociation)
    }

    /// The request, with the association joined with `LEFT JOIN`.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _joining(optional: association._sqlAssociation)
    }

    /// The request, with the association joined with `JOIN`, its columns
    /// not selected: only the rows that have an associated row are fetched.
    ///
    /// ```swift
    /// // SELECT "player".* FROM "player"
    /// // JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."name" = ?)
    /// let request = Player.all().joining(required: Player.team.filter(Column("name") == "Reds"))
    /// ```
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _joining(required: association._sqlAssociation)
    }
}

extension QueryInterfaceRequest {
    /// See ``JoinableRequest/including(all:)``.
    public func _including(all association: _SQLAssociation) -> Self {
        var request = self
        request.relation = relation.appending(SQLPrefetch(key: association.prefetchKey, association: association))
        return request
    }

    /// See ``JoinableRequest/including(optional:)``.
    public func _including(optional association: _SQLAssociation) -> Self {
        joining(association, kind: .optional, isIncluded: true)
    }

    /// See ``JoinableRequest/including(required:)``.
    public func _including(required association: _SQLAssociation) -> Self {
        joining(association, kind: .required, isIncluded: true)
    }

    /// See ``JoinableRequest/joining(optional:)``.
    public func _joining(optional association: _SQLAssociation) -> Self {
        joining(association, kind: .optional, isIncluded: false)
    }

    /// See ``JoinableRequest/joining(required:)``.
    public func _joining(required association: _SQLAssociation) -> Self {
        joining(association, kind: .required, isIncluded: false)
    }
}

// Associations are derivable requests, as in GRDB: their clauses refine
// their destination.
extension Association {
    /// See ``JoinableRequest/including(all:)``.
    public func _including(all association: _SQLAssociation) -> Self {
        let prefetch = SQLPrefetch(key: association.prefetchKey, association: association)
        return mapDestination { $0 = $0.appending(prefetch) }
    }

    /// See ``JoinableRequest/including(optional:)``.
    public func _including(optional association: _SQLAssociation) -> Self {
        chainingJoin(association, kind: .optional, isIncluded: true)
    }

    /// See ``JoinableRequest/including(required:)``.
    public func _including(required association: _SQLAssociation) -> Self {
        chainingJoin(association, kind: .required, isIncluded: true)
    }

    /// See ``JoinableRequest/joining(optional:)``.
    public func _joining(optional association: _SQLAssociation) -> Self {
        chainingJoin(association, kind: .optional, isIncluded: false)
    }

    /// See ``JoinableRequest/joining(required:)``.
    public func _joining(required association: _SQLAssociation) -> Self {
        chainingJoin(association, kind: .required, isIncluded: false)
    }

    private func chainingJoin(_ association: _SQLAssociation, kind: SQLJoin.Kind, isIncluded: Bool) -> Self {
        let join = association.join(kind: kind, isIncluded: isIncluded)
        return mapDestination { $0 = $0.appending(join) }
    }

    /// The association, whose destination table is named by `alias`.
    public func _aliased(_ alias: TableAliasBase) -> Self {
        aliased(alias)
    }

    /// The association, selecting what `selection` returns when the request
    /// runs.
    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        mapDestination { $0.selection = [SQLSelection(.deferred { db in try selection(db).map(\.sqlSelection) })] }
    }

    /// The association, selecting what `selection` returns when the request
    /// runs, after its current selection.
    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        mapDestination { $0.selection.append(SQLSelection(.deferred { db in try selection(db).map(\.sqlSelection) })) }
    }

    /// The association, with one more condition, which `predicate` returns
    /// when the request runs.
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        mapDestination { $0.filters.append { db in try predicate(db).sqlExpression } }
    }

    /// The association, grouped by what `expressions` returns when the
    /// request runs (for its prefetched records).
    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self {
        mapDestination {
            $0.groupExpressions = nil
            $0.deferredGrouping = { db in try expressions(db).map(\.sqlExpression) }
        }
    }

    /// The association, with one more `HAVING` condition (for its
    /// prefetched records).
    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        mapDestination {
            $0.havingExpressions.append(
                SQLExpression(literal: SQL(element: .deferred { db in try predicate(db).sqlExpression.sql })))
        }
    }

    /// The association, ordered by what `orderings` returns when the request
    /// runs.
    public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self {
        mapDestination { $0.orderings = [SQLOrdering(.deferred { db in try orderings(db).map(\.sqlOrdering) })] }
    }

    /// The association, with the primary key of its destination appended
    /// to its order.
    public func withStableOrder() -> Self {
        mapDestination { $0 = $0.withStableOrder() }
    }
}
