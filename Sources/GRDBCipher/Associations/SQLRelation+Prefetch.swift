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
    ///
    /// As in GRDB, the tables that `through` associations go through are
    /// joined tables of the relation, known by their keys: prefetches whose
    /// first steps have the same keys share those steps, with the filters of
    /// all of them (even when the prefetches have different keys); two
    /// prefetches of one key through different tables stay two.
    func appending(_ prefetch: SQLPrefetch) -> SQLRelation {
        var relation = self
        var prefetch = prefetch
        relation.mergePivots(of: &prefetch)
        // One key through other tables is another prefetch, as in GRDB.
        let pivotKeys = prefetch.association.steps.dropLast().map(\.keyName)
        if let index = relation.prefetches.firstIndex(where: {
            $0.key == prefetch.key && $0.association.steps.dropLast().map(\.keyName) == pivotKeys
        }) {
            let merged = relation.prefetches[index].association.destination.relation
                .merged(with: prefetch.association.destination.relation)
            relation.prefetches[index].association.destination.relation = merged
        } else {
            relation.prefetches.append(prefetch)
        }
        return relation
    }

    /// Merges the steps that `prefetch` goes through (all but its last)
    /// with those of the prefetches that go through the same keys, step by
    /// step from the relation's table: each shared step becomes the merge
    /// of all of them, in the order they were added.
    private mutating func mergePivots(of prefetch: inout SQLPrefetch) {
        var sharing = Array(prefetches.indices)
        for depth in 0..<(prefetch.association.steps.count - 1) {
            let step = prefetch.association.steps[depth]
            sharing = sharing.filter { index in
                let steps = prefetches[index].association.steps
                return depth < steps.count - 1
                    && steps[depth].keyName == step.keyName
                    && steps[depth].relation.tableName == step.relation.tableName
            }
            // The shared steps are equal already: the first holds every
            // filter added before this one.
            guard let first = sharing.first else { return }
            let merged = prefetches[first].association.steps[depth].relation.merged(with: step.relation)
            for index in sharing {
                prefetches[index].association.steps[depth].relation = merged
            }
            prefetch.association.steps[depth].relation = merged
        }
    }

    /// A prefetched association of a relation, or of one of its joined
    /// tables (see ``SQLRelation/allPrefetches()``).
    struct NestedPrefetch {
        /// The keys of the joins that lead to the table that prefetches.
        var scopePath: [String]
        /// The prefetch, its association going through those joins.
        var prefetch: SQLPrefetch
        /// The path GRDB gives the prefetched rows: the keys of the joins,
        /// of the tables the association goes through (`books.reviews`),
        /// and the key of the prefetched rows.
        var keyPath: [String]
    }

    /// The prefetched associations of the relation and of its joined
    /// tables: an association prefetched by a joined table goes through the
    /// joins that lead to it, and its rows go to the scope of that table.
    func allPrefetches() -> [NestedPrefetch] {
        func nested(_ prefetch: SQLPrefetch, scopePath: [String], joinSteps: [_SQLAssociation.Step]) -> NestedPrefetch {
            var throughJoins = prefetch
            throughJoins.association.steps = joinSteps + prefetch.association.steps
            let pivotKeys = prefetch.association.steps.dropLast().map(\.keyName)
            return NestedPrefetch(scopePath: scopePath, prefetch: throughJoins, keyPath: scopePath + pivotKeys + [prefetch.key])
        }
        var result = prefetches.map { nested($0, scopePath: [], joinSteps: []) }
        func visit(_ relation: SQLRelation, scopePath: [String], steps: [_SQLAssociation.Step]) {
            for join in relation.joins {
                var joined = join.relation
                joined.joins = []
                joined.prefetches = []
                let joinSteps = steps + [_SQLAssociation.Step(
                    key: .fixed(join.key), isToMany: false, condition: join.condition, relation: joined)]
                let path = scopePath + [join.key]
                for prefetch in join.relation.prefetches {
                    result.append(nested(prefetch, scopePath: path, joinSteps: joinSteps))
                }
                visit(join.relation, scopePath: path, steps: joinSteps)
            }
        }
        visit(self, scopePath: [], steps: [])
        return result
    }

    /// Fetches the prefetched associations of `rows`, rows of this relation,
    /// and gives each row its own (see ``Row/prefetchedRows``). Before each
    /// request runs, `willExecute` is called with it and the key path of
    /// its rows.
    ///
    /// - throws: A ``DatabaseError``.
    func prefetch(_ db: Database, into rows: [Row], willExecute: WillExecuteSupplementaryRequest? = nil) throws {
        guard !rows.isEmpty else { return }
        // Two prefetches of one key through different tables both run, and
        // the rows keep those of the first, as in GRDB.
        var filledKeys: Set<[String]> = []
        for nestedPrefetch in allPrefetches() {
            let scopePath = nestedPrefetch.scopePath
            let prefetch = nestedPrefetch.prefetch
            let fills = filledKeys.insert(scopePath + [prefetch.key]).inserted
            let mapping = try pivotMapping(db, prefetch)
            let originColumns = mapping.map(\.left)
            let pivotColumns = mapping.map(\.right)
            let groupingColumns = pivotColumns.map { "grdb_" + $0 }

            let pivotFilter: PivotFilter
            if mapping.count == 1 {
                var values: [DatabaseValue] = []
                var seen: Set<DatabaseValue> = []
                for row in rows {
                    let value: DatabaseValue = row[originColumns[0]]
                    if !value.isNull && seen.insert(value).inserted { values.append(value) }
                }
                guard !values.isEmpty else {
                    if fills {
                        for row in rows { row.setPrefetchedRows([], forKey: prefetch.key, inScope: scopePath[...]) }
                    }
                    continue
                }
                pivotFilter = .values(values)
            } else {
                // Many values of several columns could make an expression
                // too deep for SQLite: the keys come from the request itself,
                // as a common table expression, as GRDB does.
                var keys = withoutIncludedJoins()
                if keys.limit == nil { keys = keys.unordered() }
                keys.prefetches = []
                keys.selection = originColumns.map { Column($0).sqlSelection }
                pivotFilter = .keys(keys)
            }

            let request = QueryInterfaceRequest<Row>(relation: prefetchRelation(
                prefetch.association, pivotColumns: pivotColumns, filter: pivotFilter, groupingColumns: groupingColumns))
            try willExecute?(request, nestedPrefetch.keyPath)
            var groups: [[DatabaseValue]: [Row]] = [:]
            for row in try request.fetchAll(db) {
                if let key = Self.key(of: row, columns: groupingColumns) { groups[key, default: []].append(row) }
            }
            guard fills else { continue }
            for row in rows {
                let prefetched = Self.key(of: row, columns: originColumns).flatMap { groups[$0] } ?? []
                row.setPrefetchedRows(prefetched, forKey: prefetch.key, inScope: scopePath[...])
            }
        }
    }

    /// The values of the columns of a row; nil if one is NULL (a NULL
    /// foreign key matches nothing).
    private static func key(of row: Row, columns: [String]) -> [DatabaseValue]? {
        var values: [DatabaseValue] = []
        for column in columns {
            let value: DatabaseValue = row[column]
            if value.isNull { return nil }
            values.append(value)
        }
        return values
    }

    /// The columns that join the relation's table (left) to the first
    /// table of a prefetched association (right).
    private func pivotMapping(_ db: Database, _ prefetch: SQLPrefetch) throws -> [(left: String, right: String)] {
        let pivot = prefetch.association.steps[0]
        guard case .foreignKey = pivot.condition,
              let mapping = try pivot.condition.joinMapping(db, leftTable: tableName, rightTable: pivot.relation.tableName)
        else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "Not implemented: prefetch association without any foreign key")
        }
        return mapping
    }

    /// The region read by the prefetched associations, at any depth: the
    /// tables and columns of their requests, whatever the rows they
    /// prefetch for.
    ///
    /// - throws: A ``DatabaseError``.
    func prefetchedRegion(_ db: Database) throws -> DatabaseRegion {
        var region = DatabaseRegion()
        for prefetch in allPrefetches().map(\.prefetch) {
            let pivotColumns = try pivotMapping(db, prefetch).map(\.right)
            // No condition on the pivot: the region is the same for all rows.
            let relation = prefetchRelation(
                prefetch.association, pivotColumns: pivotColumns, filter: .none,
                groupingColumns: pivotColumns.map { "grdb_" + $0 })
            try region.formUnion(QueryInterfaceRequest<Row>(relation: relation).databaseRegion(db))
        }
        return region
    }

    /// How the table next to the fetched rows (the pivot) is filtered.
    private enum PivotFilter {
        /// `"fk" IN (?, ?, ?)`, `"fk" = ?` for one value.
        case values([DatabaseValue])
        /// `("a", "b") IN "grdb_base"`, where `grdb_base` selects the keys
        /// of the fetched rows.
        case keys(SQLRelation)
        /// No condition.
        case none
    }

    /// The relation of the prefetched rows: the destination, joined back to
    /// the pivot, which is filtered on the keys of the fetched rows, and
    /// whose foreign key columns are selected under their grouping names.
    private func prefetchRelation(
        _ association: _SQLAssociation, pivotColumns: [String], filter: PivotFilter, groupingColumns: [String])
    -> SQLRelation
    {
        let steps = association.steps
        let pivotAlias = TableAliasBase(name: nil)
        let pivotExpressions = pivotColumns.map { SQLExpression(.qualified(Column($0).sqlExpression, pivotAlias)) }
        var relation = steps[0].relation
        relation.source.aliases.append(pivotAlias)
        var baseCTE: SQLCTE?
        switch filter {
        case .values(let values):
            let condition = values.contains(pivotExpressions[0])
            relation.filters.append { _ in condition }
        case .keys(let keys):
            let cte = SQLCTE(tableName: "grdb_base", columns: nil, subquery: SQLSubquery(.relation(keys)), isRecursive: false)
            // `("a", "b")`: a row value, written as a call without a name.
            let rowValue = SQLExpression(.function("", pivotExpressions))
            let condition = SQLExpression(.inCollection(rowValue, SQL(sql: cte.tableName.quotedDatabaseIdentifier), negated: false))
            relation.filters.append { _ in condition }
            baseCTE = cte
        case .none:
            break
        }
        for index in steps.indices.dropFirst() {
            let step = steps[index]
            relation = step.relation.appending(SQLJoin(
                key: steps[index - 1].reversedJoinKey, kind: .required, isIncluded: false,
                condition: step.condition.reversed, relation: relation))
        }
        if let baseCTE { relation = relation.with(baseCTE) }
        relation.selection += zip(pivotExpressions, groupingColumns).map { $0.forKey($1) }
        return relation
    }
}

extension TableRecord {
    /// A request of the table with the records of a to-many association
    /// prefetched (see ``JoinableRequest/including(all:)``).
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(all: association)
    }
}

extension Table {
    /// A request of the table with the records of a to-many association
    /// prefetched (see ``JoinableRequest/including(all:)``).
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(all: association)
    }
}
