extension DatabaseEventKind {
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
