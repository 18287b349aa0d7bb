/// An error about a record, thrown by record methods.
public enum RecordError: Error {
    /// No row of `databaseTableName` has this key: thrown by
    /// ``MutablePersistableRecord/update(_:onConflict:)`` and its variants
    /// when no row was updated, or when the primary key of the record is
    /// NULL.
    ///
    /// ```swift
    /// do {
    ///     try player.update(db)
    /// } catch RecordError.recordNotFound(databaseTableName: let table, key: let key) {
    ///     print("no \(table) row with key \(key)")
    /// }
    /// ```
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])
}

extension RecordError: CustomStringConvertible {
    /// `Key not found in table player: [id:1]`.
    public var description: String {
        switch self {
        case let .recordNotFound(databaseTableName: tableName, key: key):
            // Sorted, so that a composite key always reads the same.
            let row = Row(key.sorted { $0.key < $1.key }.map { ($0.key, $0.value as (any DatabaseValueConvertible)?) })
            return "Key not found in table \(tableName): \(row.description)"
        }
    }
}
