// Change tracking of the Record class: what encode(to:) gives now, compared
// with the values the database was last known to hold.

extension Record {
    /// Whether the record has values that the database does not hold.
    ///
    /// True for a new record, a record built from a row that was not
    /// fetched, a deleted record, and a record whose ``encode(to:)`` gives a
    /// value that differs from the one it was fetched, inserted or updated
    /// with. Values are compared, not property assignments: setting a
    /// property to its current value is no change. True as well when the
    /// record cannot be encoded, since it surely cannot be saved as it is.
    ///
    /// ```swift
    /// let player = try Player.find(db, key: 1)
    /// player.hasDatabaseChanges   // false
    /// player.score += 10
    /// player.hasDatabaseChanges   // true
    /// ```
    ///
    /// The flag informs: persistence methods run their statements whatever
    /// it says. ``updateChanges(_:)`` is the method that skips the update
    /// when there is nothing to write.
    public var hasDatabaseChanges: Bool {
        do {
            return try !changedColumns().isEmpty
        } catch {
            return true
        }
    }

    /// The changed columns, with the values the database was last known to
    /// hold for them.
    ///
    /// The old value is nil when the record has no reference (a new or
    /// deleted record), or when its reference has no such column.
    ///
    /// ```swift
    /// let player = try Player.find(db, key: 1)   // score 100
    /// player.score = 200
    /// try player.databaseChanges                 // ["score": 100]
    /// ```
    ///
    /// - throws: The error of ``encode(to:)``.
    public var databaseChanges: [String: DatabaseValue?] {
        get throws {
            var changes: [String: DatabaseValue?] = [:]
            for (column, oldValue) in try changedColumns() {
                changes[column] = oldValue
            }
            return changes
        }
    }

    /// Updates the changed columns, and only them, if there are any.
    ///
    /// ```swift
    /// player.score = 200
    /// try player.updateChanges(db)   // UPDATE "player" SET "score"=? WHERE "id"=?
    /// try player.updateChanges(db)   // no statement: returns false
    /// ```
    ///
    /// The update callbacks run, and the record has no changes afterwards.
    ///
    /// - returns: Whether the record had changes, and was updated.
    /// - throws: A ``DatabaseError``, the error of a callback or of
    ///   ``encode(to:)``, or ``RecordError/recordNotFound(databaseTableName:key:)``
    ///   when no row has the record's primary key.
    @discardableResult
    public final func updateChanges(_ db: Database) throws -> Bool {
        let columns = try changedColumns().map({ $0.column })
        if columns.isEmpty { return false }
        try update(db, columns: Set(columns))
        return true
    }

    /// The encoded columns whose value differs from the reference row, in
    /// encoding order, each with its value there (nil when the reference is
    /// missing or lacks the column).
    private func changedColumns() throws -> [(column: String, oldValue: DatabaseValue?)] {
        let container = try PersistenceContainer(self)
        guard let referenceRow else {
            return container.map { ($0.0, nil) }
        }
        var changes: [(column: String, oldValue: DatabaseValue?)] = []
        for (column, newValue) in container {
            guard let index = referenceRow.index(forColumn: column) else {
                changes.append((column, nil))
                continue
            }
            let oldValue = referenceRow.databaseValue(atIndex: index)
            if oldValue != newValue { changes.append((column, oldValue)) }
        }
        return changes
    }
}
