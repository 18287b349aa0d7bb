// Requests built from the record's database components (its `Columns` by
// default), with closures or key paths:
//
//     Player.filter { $0.score > 1000 }.order(\.name).select { [$0.id, $0.name] }
//
// The closure forms of `filter`, `order`, `select`, `annotated`, `group` and
// `having` on requests are those of the request protocols (FilteredRequest,
// OrderedRequest, ...), and only those, as in GRDB: a second, concrete
// overload of the same method on `QueryInterfaceRequest` changes which
// overload Swift picks for other arguments (see ImmediateRequestClauses). The
// static forms on records are in TableRecord+Request.swift.

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// The request, selecting a value of the record's components, decoded as `type`.
    ///
    /// ```swift
    /// let names = try Player.all().select({ $0.name }, as: String.self).fetchAll(db)
    /// ```
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self
    ) rethrows -> QueryInterfaceRequest<T> {
        try select([selection(RowDecoder.databaseComponents)], as: type)
    }

    /// The request, selecting values of the record's components, decoded as `type`.
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self
    ) rethrows -> QueryInterfaceRequest<T> {
        try select(selection(RowDecoder.databaseComponents), as: type)
    }
}
