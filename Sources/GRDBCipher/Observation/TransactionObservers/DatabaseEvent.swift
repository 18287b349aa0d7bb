import CSQLCipher
import Foundation

/// One row inserted, updated or deleted, as told to
/// ``TransactionObserver/databaseDidChange(with:)``.
///
/// An event is only valid during the call that receives it: keep a
/// ``copy()`` to store it.
public struct DatabaseEvent {
    /// What happened to the row.
    public enum Kind: CInt, Sendable {
        /// The row was inserted.
        case insert = 18 // SQLITE_INSERT
        /// The row was deleted.
        case delete = 9 // SQLITE_DELETE
        /// The row was updated.
        case update = 23 // SQLITE_UPDATE
    }

    /// The names, either still SQLite's C strings (valid during the
    /// callback only) or Swift strings.
    private enum Names {
        case transient(database: UnsafePointer<CChar>, table: UnsafePointer<CChar>)
        case copied(database: String, table: String)
    }

    private let names: Names

    /// What happened to the row.
    public let kind: Kind

    /// The rowid of the row.
    public let rowID: Int64

    /// The name of the database of the table (`main`, `temp`, or the name
    /// of an attached database).
    public var databaseName: String {
        switch names {
        case .transient(let database, _): return String(cString: database)
        case .copied(let database, _): return database
        }
    }

    /// The name of the table of the row.
    public var tableName: String {
        switch names {
        case .transient(_, let table): return String(cString: table)
        case .copied(_, let table): return table
        }
    }

    init(kind: Kind, rowID: Int64, databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>) {
        self.kind = kind
        self.rowID = rowID
        self.names = .transient(database: databaseName, table: tableName)
    }

    init(kind: Kind, rowID: Int64, databaseName: String, tableName: String) {
        self.kind = kind
        self.rowID = rowID
        self.names = .copied(database: databaseName, table: tableName)
    }

    /// A copy of the event that stays valid after the callback returns.
    ///
    /// ```swift
    /// func databaseDidChange(with event: DatabaseEvent) {
    ///     events.append(event.copy())
    /// }
    /// ```
    public func copy() -> DatabaseEvent {
        switch names {
        case .transient:
            return DatabaseEvent(kind: kind, rowID: rowID, databaseName: databaseName, tableName: tableName)
        case .copied:
            return self
        }
    }

    /// Whether the table is `name`, without making a Swift string.
    func hasTableName(_ name: String) -> Bool {
        switch names {
        case .transient(_, let table): return name.withCString { strcmp($0, table) == 0 }
        case .copied(_, let table): return table == name
        }
    }
}

// An event may point at SQLite's memory, valid during its callback only;
// like GRDB, the type is explicitly not Sendable.
@available(*, unavailable)
extension DatabaseEvent: Sendable {}
