/// How regions meet the events that transaction observers hear, and the
/// region that an observation tracks.
extension DatabaseRegion {
    /// Whether an event of this kind can modify the region. Use it from
    /// ``TransactionObserver/observes(eventsOfKind:)``.
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        !intersection(eventKind.modifiedRegion).isEmpty
    }

    /// Whether the event modifies the region: its table is in the region,
    /// and so is its row, when the region lists rows. Use it from
    /// ``TransactionObserver/databaseDidChange(with:)``, for events whose
    /// kind passed ``isModified(byEventsOfKind:)``.
    ///
    /// An event in a table the region does not name counts as a
    /// modification: virtual tables (FTS4) report their changes in shadow
    /// tables the statement did not name.
    public func isModified(by event: DatabaseEvent) -> Bool {
        guard let tables else { return true }
        guard let table = tables[event.tableName.lowercased()] else { return true }
        return table.contains(rowID: event.rowID)
    }

    /// The region an observation should track: SQLite's internal tables
    /// removed (their changes are not reported), views removed, and table
    /// names as the schema spells them.
    ///
    /// - throws: A ``DatabaseError`` if the schema cannot be read.
    func observableRegion(_ db: Database) throws -> DatabaseRegion {
        guard let tables else { return .fullDatabase }
        var result = DatabaseRegion()
        for table in tables.values where !Database.isSQLiteInternalTable(table.name) {
            guard let name = try db.canonicalTableName(table.name) else { continue }
            var canonical = table
            canonical.name = name
            result.formUnion(DatabaseRegion(tables: [name.lowercased(): canonical]))
        }
        return result
    }
}
