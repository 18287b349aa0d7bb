/// A request of a table: it can be aliased, and filtered or ordered by key.
public protocol TableRequest {
    /// The name of the table the request fetches from.
    var databaseTableName: String { get }

    /// The request, whose table is named by `alias`. Use ``aliased(_:)-(TableAlias<Void>)``.
    func _aliased(_ alias: TableAliasBase) -> Self
}

extension TableRequest where Self: TypedRequest {
    /// The request, whose table is named by `alias`.
    public func aliased(_ alias: TableAlias<Void>) -> Self {
        _aliased(alias)
    }

    /// The request, whose table is named by `alias`.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
        _aliased(alias)
    }
}

extension TableRequest where Self: FilteredRequest, Self: TypedRequest {
    /// The request, filtered by primary key: `"id" = ?`; a NULL key fetches
    /// nothing.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        if key.databaseValue.isNull { return none() }
        return filter(keys: [key])
    }

    /// The request, filtered by primary keys: `"id" IN (?, ?)`; no key
    /// fetches nothing. `Data`, `Date` and `UUID` keys are encoded with the
    /// record's strategies when it is an ``EncodableRecord``.
    public func filter<Keys: Collection>(keys: Keys) -> Self where Keys.Element: DatabaseValueConvertible {
        guard let keyFilter = KeyFilter(keys: keys, tableName: databaseTableName, recordType: RowDecoder.self) else {
            return none()
        }
        return filter(keyFilter)
    }

    /// The request, filtered by unique key; nil fetches nothing. Fetching
    /// throws if the columns hold no unique key (GRDB traps).
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        guard let key else { return none() }
        return filter(keys: [key])
    }

    /// The request, filtered by unique keys, joined with `OR`.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        guard let keyFilter = KeyFilter(uniqueKeys: keys, tableName: databaseTableName) else { return none() }
        return filter(keyFilter)
    }

    private func filter(_ keyFilter: KeyFilter) -> Self {
        if let request = self as? any ImmediateRequestClauses {
            return request.immediateFilter(keyFilter) as! Self
        }
        return filterWhenConnected(keyFilter.predicate)
    }
}

extension TableRequest
where Self: FilteredRequest, Self: TypedRequest, RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible
{
    /// The request, filtered by id: `"id" = ?`.
    public func filter(id: RowDecoder.ID) -> Self {
        filter(key: id)
    }

    /// The request, filtered by ids: `"id" IN (?, ?)`.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self {
        filter(keys: ids)
    }
}

extension TableRequest where Self: OrderedRequest {
    /// The request, ordered by the primary key of its table (the rowid when
    /// it has no explicit one), instead of its current order.
    public func orderByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return orderWhenConnected { db in
            try db.primaryKey(tableName).columns.map { Column($0) }
        }
    }
}

extension TableRequest where Self: AggregatingRequest {
    /// The request, grouped by the primary key of its table: its rowid
    /// column, `rowid`, or the columns of a `WITHOUT ROWID` primary key.
    public func groupByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return groupWhenConnected { db in
            let primaryKey = try db.primaryKey(tableName)
            if let rowIDColumn = primaryKey.rowIDColumn {
                return [Column(rowIDColumn)]
            }
            if primaryKey.tableHasRowID {
                return [Column.rowID]
            }
            return primaryKey.columns.map { Column($0) }
        }
    }
}
