/// A kind of change that a statement can make: what
/// ``TransactionObserver/observes(eventsOfKind:)`` is asked about.
public enum DatabaseEventKind: Sendable {
    /// Rows inserted into a table.
    case insert(tableName: String)

    /// Rows deleted from a table.
    case delete(tableName: String)

    /// Some columns of rows updated in a table.
    case update(tableName: String, columnNames: Set<String>)

    /// The name of the table the change happens in.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _):
            return tableName
        }
    }

    /// The region this kind of change modifies.
    var modifiedRegion: DatabaseRegion {
        switch self {
        case .insert(let tableName), .delete(let tableName):
            return DatabaseRegion(table: tableName)
        case .update(let tableName, let columnNames):
            return DatabaseRegion(table: tableName, columns: columnNames)
        }
    }

    /// Whether `event` is a change of this kind (same operation, same table).
    func matches(_ event: DatabaseEvent) -> Bool {
        switch (self, event.kind) {
        case (.insert(let tableName), .insert), (.delete(let tableName), .delete), (.update(let tableName, _), .update):
            return event.hasTableName(tableName)
        default:
            return false
        }
    }
}
