import Foundation

// Requests by primary key or unique key. The key column is found when the
// SQL is generated, from the connection's schema cache.

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
