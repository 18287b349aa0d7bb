// The number of rows a write changed, views with INSTEAD OF triggers included.

extension Database {
    /// Runs `write`, a statement on `tableName`, and returns its result with
    /// the number of rows it changed.
    ///
    /// SQLite does not count, in `sqlite3_changes`, the rows that the INSTEAD
    /// OF triggers of a view change: for a view, the count is the change of
    /// `sqlite3_total_changes` (the rows its triggers changed), as in GRDB.
    /// For a table, it is `sqlite3_changes`, which a full-text table's
    /// shadow writes do not inflate.
    func countingChangedRows<T>(inTable tableName: String, _ write: () throws -> T) throws -> (T, changes: Int) {
        guard try viewExists(tableName) else {
            let result = try write()
            return (result, changesCount)
        }
        let totalBefore = totalChangesCount
        let result = try write()
        return (result, totalChangesCount - totalBefore)
    }
}
