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
        guard let keyFilter = KeyFilter(keys: keys, tableName: relation.tableName, recordType: RowDecoder.self) else {
            return none()
        }
        return immediateFilter(keyFilter)
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
    /// `filter(key:)-(Dictionary?)`, joined with `OR`.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        guard let keyFilter = KeyFilter(uniqueKeys: keys, tableName: relation.tableName) else { return none() }
        return immediateFilter(keyFilter)
    }
}

/// The condition of a filter by primary or unique keys, computed when the
/// SQL is generated (the key columns come from the schema).
struct KeyFilter: Sendable {
    let predicate: @Sendable (Database) throws -> SQLExpression
    /// Whether the filter matches one row at most (one key).
    let matchesOneRow: Bool

    /// A filter by primary key: `"id" IN (?, ?)`, or nil when no key is
    /// left (nothing matches). `Data`, `Date` and `UUID` keys are encoded
    /// with the record's encoding strategies when `recordType` is an
    /// ``EncodableRecord``, and their NULLs are dropped, as in GRDB.
    init?<Keys: Collection>(keys: Keys, tableName: String, recordType: Any.Type)
    where Keys.Element: DatabaseValueConvertible
    {
        var keys = Array(keys)
        let record = recordType as? any EncodableRecord.Type
        if keyValueDependsOnStrategies(Keys.Element.self) && record != nil {
            keys.removeAll { $0.databaseValue.isNull }
        }
        if keys.isEmpty { return nil }
        let values = keys.map({ $0.databaseValue })
        let encoders = keys.map { key in record.flatMap { Self.strategyEncoder(for: key, record: $0) } }
        predicate = { db in
            let column = try db.filteringPrimaryKeyColumn(tableName)
            let expressions = zip(values, encoders).map { value, encoder in
                SQLExpression.value(encoder?(column) ?? value)
            }
            return expressions.contains(Column(column))
        }
        matchesOneRow = values.count == 1
    }

    /// The encoding of a `Data`, `Date` or `UUID` key by the record's
    /// strategy for the key column; nil for other keys.
    private static func strategyEncoder(
        for key: some DatabaseValueConvertible, record: any EncodableRecord.Type) -> (@Sendable (String) -> DatabaseValue?)?
    {
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

    /// A filter by unique keys, each `("a" = ?) AND ("b" = ?)` in the order
    /// of the unique index, joined with `OR`; nil for no key. Generating
    /// the SQL throws unless each key is a unique key (GRDB traps).
    init?(uniqueKeys keys: [[String: (any DatabaseValueConvertible)?]], tableName: String) {
        if keys.isEmpty { return nil }
        let keys = keys.map { $0.mapValues { $0?.databaseValue ?? .null } }
        predicate = { db in
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
        matchesOneRow = keys.count == 1
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
