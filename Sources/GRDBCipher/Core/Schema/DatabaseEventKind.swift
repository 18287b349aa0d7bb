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
}
