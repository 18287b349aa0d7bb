// Prefetching to-many associations (`including(all:)`), as GRDB does it:
// once the rows of the request are fetched, one more request per
// association fetches the associated rows of all of them, filtered on the
// foreign key values of the fetched rows, and annotated with the foreign
// key (`grdb_<column>`), so that each row gets its own:
//
//     SELECT * FROM "author"
//     SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (?, ?, ?)
//
// A `through` association joins its intermediate tables, and filters the
// one next to the fetched rows:
//
//     SELECT "book".*, "person"."countryCode" AS "grdb_countryCode" FROM "book"
//     JOIN "person" ON ("person"."id" = "book"."authorId") AND ("person"."countryCode" IN (?, ?))

/// A to-many association prefetched after the rows of a relation.
struct SQLPrefetch: Sendable {
    /// The association key: the key of the prefetched rows.
    var key: String
    var association: _SQLAssociation
}

extension SQLRelation {
    /// The relation with one more prefetched association; one of the same
    /// key is merged (see ``SQLJoin/merged(with:)``).
    func appending(_ prefetch: SQLPrefetch) -> SQLRelation {
        var relation = self
        if let index = relation.prefetches.firstIndex(where: { $0.key == prefetch.key }) {
            let merged = relation.prefetches[index].association.destination.relation
                .merged(with: prefetch.association.destination.relation)
            relation.prefetches[index].association.destination.relation = merged
        } else {
            relation.prefetches.append(prefetch)
        }
        return relation
    }

    /// The prefetched associations of the relation and of its joined
    /// tables: an association prefetched by a joined table goes through the
    /// joins that lead to it, and its rows go to the scope of that table.
    func allPrefetches() -> [(scopePath: [String], prefetch: SQLPrefetch)] {
        var result = prefetches.map { (scopePath: [String](), prefetch: $0) }
        func visit(_ relation: SQLRelation, scopePath: [String], steps: [_SQLAssociation.Step]) {
            for join in relation.joins {
                var joined = join.relation
                joined.joins = []
                joined.prefetches = []
                let joinSteps = steps + [_SQLAssociation.Step(
                    key: .fixed(join.key), isToMany: false, condition: join.condition, relation: joined)]
                let path = scopePath + [join.key]
                for prefetch in join.relation.prefetches {
                    var throughJoins = prefetch
                    throughJoins.association.steps = joinSteps + prefetch.association.steps
                    result.append((scopePath: path, prefetch: throughJoins))
                }
                visit(join.relation, scopePath: path, steps: joinSteps)
            }
        }
        visit(self, scopePath: [], steps: [])
        return result
    }

    /// Fetches the prefetched associations of `rows`, rows of this relation,
    /// and gives each row its own (see ``Row/prefetchedRows``).
    ///
    /// - throws: A ``DatabaseError``.
    func prefetch(_ db: Database, into rows: [Row]) throws {
        guard !rows.isEmpty else { return }
        for (scopePath, prefetch) in allPrefetches() {
            let steps = prefetch.association.steps
            let pivot = steps[0]
            guard case .foreignKey = pivot.condition,
                  let mapping = try pivot.condition.joinMapping(db, leftTable: tableName, rightTable: pivot.relation.tableName)
            else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "Not implemented: prefetch association without any foreign key")
            }
            guard mapping.count == 1 else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Not implemented in GRDBCipher: including(all:) with a foreign key of several columns")
            }
            let (originColumn, pivotColumn) = (mapping[0].left, mapping[0].right)

            var values: [DatabaseValue] = []
            var seen: Set<DatabaseValue> = []
            for row in rows {
                let value: DatabaseValue = row[originColumn]
                if !value.isNull && seen.insert(value).inserted { values.append(value) }
            }
            guard !values.isEmpty else {
                for row in rows { row.setPrefetchedRows([], forKey: prefetch.key, inScope: scopePath[...]) }
                continue
            }

            let groupingColumn = "grdb_" + pivotColumn
            let request = QueryInterfaceRequest<Row>(relation: prefetchRelation(
                prefetch.association, pivotColumn: pivotColumn, values: values, groupingColumn: groupingColumn))
            var groups: [DatabaseValue: [Row]] = [:]
            for row in try request.fetchAll(db) {
                groups[row[groupingColumn], default: []].append(row)
            }
            for row in rows {
                let value: DatabaseValue = row[originColumn]
                row.setPrefetchedRows(value.isNull ? [] : groups[value] ?? [], forKey: prefetch.key, inScope: scopePath[...])
            }
        }
    }

    /// The region read by the prefetched associations, at any depth: the
    /// tables and columns of their requests, whatever the rows they
    /// prefetch for.
    ///
    /// - throws: A ``DatabaseError``.
    func prefetchedRegion(_ db: Database) throws -> DatabaseRegion {
        var region = DatabaseRegion()
        for (_, prefetch) in allPrefetches() {
            let pivot = prefetch.association.steps[0]
            guard let mapping = try pivot.condition.joinMapping(db, leftTable: tableName, rightTable: pivot.relation.tableName),
                  mapping.count == 1
            else { continue }
            // No condition on the pivot: the region is the same for all rows.
            let relation = prefetchRelation(
                prefetch.association, pivotColumn: mapping[0].right, values: nil, groupingColumn: "grdb_" + mapping[0].right)
            try region.formUnion(QueryInterfaceRequest<Row>(relation: relation).databaseRegion(db))
        }
        return region
    }

    /// The relation of the prefetched rows: the destination, joined back to
    /// the table next to the fetched rows (the pivot), which is filtered on
    /// the foreign key values (unless they are nil), and whose foreign key
    /// column is selected under the grouping name.
    private func prefetchRelation(
        _ association: _SQLAssociation, pivotColumn: String, values: [DatabaseValue]?, groupingColumn: String)
    -> SQLRelation
    {
        let steps = association.steps
        let pivotAlias = TableAliasBase(name: nil)
        let pivotExpression = SQLExpression(.qualified(Column(pivotColumn).sqlExpression, pivotAlias))
        var relation = steps[0].relation
        relation.source.aliases.append(pivotAlias)
        if let values {
            let filter = values.contains(pivotExpression)
            relation.filters.append { _ in filter }
        }
        for index in steps.indices.dropFirst() {
            let step = steps[index]
            relation = step.relation.appending(SQLJoin(
                key: steps[index - 1].keyName, kind: .required, isIncluded: false,
                condition: step.condition.reversed, relation: relation))
        }
        relation.selection.append(pivotExpression.forKey(groupingColumn))
        return relation
    }
}

extension QueryInterfaceRequest {
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
    /// ```
    ///
    /// Cursors do not support such requests: fetching one throws.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        var request = self
        request.relation = relation.appending(SQLPrefetch(
            key: association._sqlAssociation.destination.keyName, association: association._sqlAssociation))
        return request
    }
}

extension Association {
    /// The association, with the records of a to-many association of its
    /// destination prefetched (see ``QueryInterfaceRequest/including(all:)``).
    ///
    /// ```swift
    /// // Authors, their books, and the chapters of each book.
    /// Author.including(all: Author.books.including(all: Book.chapters))
    /// ```
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        let prefetch = SQLPrefetch(
            key: association._sqlAssociation.destination.keyName, association: association._sqlAssociation)
        return mapDestination { $0 = $0.appending(prefetch) }
    }
}

extension TableRecord {
    /// A request of the table with the records of a to-many association
    /// prefetched (see ``QueryInterfaceRequest/including(all:)``).
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(all: association)
    }
}

extension Table {
    /// A request of the table with the records of a to-many association
    /// prefetched (see ``QueryInterfaceRequest/including(all:)``).
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(all: association)
    }
}
