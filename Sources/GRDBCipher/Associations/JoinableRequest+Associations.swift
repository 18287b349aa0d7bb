// The joining methods of every joinable request (requests and associations),
// for code written against the request protocols:
//
//     extension DerivableRequest<Author> {
//         func withBooks() -> Self { including(all: Author.books) }
//     }

extension JoinableRequest {
    /// The request, with the records of a to-many association prefetched.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(all: association._sqlAssociation)
    }

    /// The request, with the association joined with `LEFT JOIN`, its
    /// columns selected.
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(optional: association._sqlAssociation)
    }

    /// The request, with the association joined with `JOIN`, its columns
    /// selected.
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(required: association._sqlAssociation)
    }

    /// The request, with the association joined with `LEFT JOIN`.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _joining(optional: association._sqlAssociation)
    }

    /// The request, with the association joined with `JOIN`.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _joining(required: association._sqlAssociation)
    }
}

extension QueryInterfaceRequest {
    /// See ``JoinableRequest/including(all:)``.
    public func _including(all association: _SQLAssociation) -> Self {
        var request = self
        request.relation = relation.appending(SQLPrefetch(key: association.destination.keyName, association: association))
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
        let prefetch = SQLPrefetch(key: association.destination.keyName, association: association)
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
