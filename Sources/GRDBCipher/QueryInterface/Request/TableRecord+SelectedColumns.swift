// The number of columns a record type selects, for splitting rows of
// hand-written joins with `splittingRowAdapters(columnCounts:)`.

extension TableRecord {
    /// The number of columns that ``databaseSelection`` selects from the
    /// record's table: `*` counts the table's columns (but the excluded
    /// ones), every other selected expression counts one.
    ///
    /// ```swift
    /// let adapters = try splittingRowAdapters(columnCounts: [
    ///     Player.numberOfSelectedColumns(db),
    ///     Team.numberOfSelectedColumns(db),
    /// ])
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist, or if the
    ///   selection holds an SQL literal, whose columns can not be counted
    ///   (GRDB traps).
    public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
        try databaseSelection.reduce(0) { count, selectable in
            try count + selectable.sqlSelection.columnCount(db, tableName: databaseTableName)
        }
    }
}

extension SQLSelection {
    /// The number of columns the selection selects from `tableName`.
    func columnCount(_ db: Database, tableName: String) throws -> Int {
        switch impl {
        case .allColumns(let excluded):
            let excludedLowercased = Set(excluded.map { $0.lowercased() })
            return try db.columns(in: tableName).count { !excludedLowercased.contains($0.name.lowercased()) }
        case .expression, .aliased:
            return 1
        case .qualified(let selection, _):
            return try selection.columnCount(db, tableName: tableName)
        case .deferred(let selections):
            return try selections(db).reduce(0) { try $0 + $1.columnCount(db, tableName: tableName) }
        case .literal:
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the number of columns of a selection literal of \(tableName) is unknown")
        }
    }
}
