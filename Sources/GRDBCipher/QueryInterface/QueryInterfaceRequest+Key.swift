import Foundation

// Requests by primary key or unique key. The key column is found when the
// SQL is generated, from the connection's schema cache.

extension QueryInterfaceRequest {
    /// The request, filtered by primary key: `"id" = ?`; nil fetches nothing.
    ///
    /// ```swift
    /// let request = Player.all().filter(key: 1)   // ... WHERE "id" = ?
    /// ```
    ///
    /// Fetching throws if the table has no single-column primary key.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        // A NULL key matches nothing: `WHERE 0`, as in GRDB.
        if key.databaseValue.isNull { return none() }
        return filter(keys: [key])
    }

    /// The request, filtered by primary keys: `"id" IN (?, ?, ?)`. No key
    /// fetches nothing. `Data`, `Date` and `UUID` keys are encoded with the
    /// record's encoding strategies when it is an ``EncodableRecord``.
    public func filter<Keys: Collection>(keys: Keys) -> Self where Keys.Element: DatabaseValueConvertible {
        if keys.isEmpty { return none() }
        var keys = Array(keys)
        if keyValueDependsOnStrategies(Keys.Element.self) && RowDecoder.self is any EncodableRecord.Type {
            // Keys encoded by the record's strategies lose their NULLs, and
            // none left matches nothing, as in GRDB.
            keys.removeAll { $0.databaseValue.isNull }
            if keys.isEmpty { return none() }
        }
        let values = keys.map({ $0.databaseValue })
        let encoders = keys.map { key -> (@Sendable (String) -> DatabaseValue?)? in
            Self.strategyEncoder(for: key)
        }
        let tableName = relation.tableName
        var request = self
        request.relation.filtersUniqueKey = request.relation.filtersUniqueKey || values.count == 1
        return request.filter { db in
            let column = try db.filteringPrimaryKeyColumn(tableName)
            let expressions = zip(values, encoders).map { value, encoder in
                SQLExpression.value(encoder?(column) ?? value)
            }
            return expressions.contains(Column(column))
        }
    }

    /// The encoding of a `Data`, `Date` or `UUID` key by the record's
    /// strategy for the key column; nil for other keys and records.
    private static func strategyEncoder(for key: some DatabaseValueConvertible) -> (@Sendable (String) -> DatabaseValue?)? {
        guard let record = RowDecoder.self as? any EncodableRecord.Type else { return nil }
        switch key as Any {
        case let date as Date:
            return { column in record.databaseDateEncodingStrategy(for: column).encode(date) }
        case let uuid as UUID:
            return { column in record.databaseUUIDEncodingStrategy(for: column).encode(uuid) }
        case let data as Data:
            return { column in try? record.databaseDataEncodingStrategy(for: column).encode(data, codingPath: []) }
        default:
            return nil
        }
    }

    /// The request, filtered by unique key: `("a" = ?) AND ("b" = ?)`; nil
    /// fetches nothing.
    ///
    /// Fetching throws if the columns hold no primary key or unique index
    /// (GRDB traps).
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        guard let key else { return none() }
        return filter(keys: [key])
    }

    /// The request, filtered by unique keys, each matched as in
    /// ``filter(key:)-(Dictionary?)``, joined with `OR`.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        if keys.isEmpty { return none() }
        let keys = keys.map { $0.mapValues { $0?.databaseValue ?? .null } }
        let tableName = relation.tableName
        var request = self
        // Generating the SQL throws unless each key is a unique key.
        request.relation.filtersUniqueKey = request.relation.filtersUniqueKey || keys.count == 1
        return request.filter { db in
            try keys.map { key in
                guard let uniqueColumns = try db.columnsForUniqueKey(key.keys, in: tableName) else {
                    let kind = (try? db.viewExists(tableName)) == true ? "database view" : "table"
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message: "\(kind) \(tableName) has no unique key on column(s) \(key.keys.sorted().joined(separator: ", "))")
                }
                // The columns of the unique key in its order, then the others.
                let order = uniqueColumns.map { $0.lowercased() }
                let rank = { (column: String) in order.firstIndex(of: column.lowercased()) ?? order.count }
                return key.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }
                    .map { Column($0.key) == $0.value }
                    .joined(operator: .and)
            }
            .joined(operator: .or)
        }
    }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// The request, filtered by id: `"id" = ?`.
    public func filter(id: RowDecoder.ID) -> Self {
        filter(key: id)
    }

    /// The request, filtered by ids: `"id" IN (?, ?, ?)`.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self {
        filter(keys: ids)
    }
}

extension TableRecord {
    /// A request of the row with this primary key: `"id" = ?`.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// A request of the rows with these primary keys: `"id" IN (?, ?, ?)`.
    public static func filter<Keys: Collection>(keys: Keys) -> QueryInterfaceRequest<Self>
    where Keys.Element: DatabaseValueConvertible
    {
        all().filter(keys: keys)
    }

    /// A request of the row with this unique key.
    public static func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// A request of the rows with these unique keys.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// A request of the row with this id.
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> {
        all().filter(id: id)
    }

    /// A request of the rows with these ids.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> {
        all().filter(ids: ids)
    }
}
