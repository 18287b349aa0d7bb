/// An error about a record: the one it was looking for is not there. Thrown
/// by `find`, and by ``MutablePersistableRecord/update(_:onConflict:)`` and
/// its variants when no row was updated or the record's primary key is NULL.
///
/// ```swift
/// do {
///     let player = try Player.find(db, id: 42)
/// } catch RecordError.recordNotFound(let tableName, let key) {
///     print("no \(tableName) with key \(key)")
/// }
/// ```
public enum RecordError: Error {
    /// No row of the table has this key (column names and values).
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])
}

extension RecordError: CustomStringConvertible {
    /// `Key not found in table player: [id:42]`.
    public var description: String {
        switch self {
        case let .recordNotFound(databaseTableName, key):
            let pairs = key.sorted { $0.key < $1.key }.map { ($0.key, $0.value as (any DatabaseValueConvertible)?) }
            return "Key not found in table \(databaseTableName): \(Row(pairs))"
        }
    }
}

extension TableRecord {
    /// The error for a key that no row has, from a primary key value.
    ///
    /// - returns: A ``RecordError``, or the error that prevented reading the
    ///   table's primary key.
    public static func recordNotFound(_ db: Database, key: some DatabaseValueConvertible) -> any Error {
        do {
            let column = try db.filteringPrimaryKeyColumn(databaseTableName)
            return RecordError.recordNotFound(databaseTableName: databaseTableName, key: [column: key.databaseValue])
        } catch {
            return error
        }
    }

    /// The error for a key that no row has, from column values.
    public static func recordNotFound(key: [String: (any DatabaseValueConvertible)?]) -> RecordError {
        RecordError.recordNotFound(
            databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
    }
}

extension TableRecord where Self: EncodableRecord {
    /// The error for this record, when no row has its primary key.
    ///
    /// ```swift
    /// if try !player.exists(db) {
    ///     throw player.recordNotFound(db)   // Key not found in table player: [id:42]
    /// }
    /// ```
    ///
    /// - returns: A ``RecordError``, or the error that prevented reading the
    ///   table's primary key or encoding the record.
    public func recordNotFound(_ db: Database) -> any Error {
        do {
            let tableName = Self.databaseTableName
            let primaryKey = try db.primaryKey(tableName)
            let container = try PersistenceContainer(self)
            let key = primaryKey.columns.map { ($0, container.databaseValue(at: $0)) }
            return RecordError.recordNotFound(
                databaseTableName: tableName, key: Dictionary(key, uniquingKeysWith: { first, _ in first }))
        } catch {
            return error
        }
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// The error for an id that no row has.
    public static func recordNotFound(_ db: Database, id: ID) -> any Error {
        recordNotFound(db, key: id)
    }
}

extension Database {
    /// The single primary key column of a table, for requests by key.
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist, is a view,
    ///   or has a primary key of several columns (GRDB traps on the last
    ///   one; a thrown error leaves the program running).
    func filteringPrimaryKeyColumn(_ tableName: String) throws -> String {
        let primaryKey: PrimaryKeyInfo
        do {
            primaryKey = try self.primaryKey(tableName)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            if (try? viewExists(tableName)) == true {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "database view \(tableName) has no primary key")
            }
            throw error
        }
        guard primaryKey.columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Filtering by primary key requires a single-column primary key in the table '\(tableName)'")
        }
        return primaryKey.columns[0]
    }
}

/// The former name of ``RecordError``.
@available(*, deprecated, renamed: "RecordError")
public typealias PersistenceError = RecordError
