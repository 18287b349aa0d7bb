/// What a successful insertion tells the insertion callbacks.
///
/// ```swift
/// struct Player: Encodable, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
/// }
/// ```
public struct InsertionSuccess {
    /// The rowid of the inserted row (or of the updated row, after an
    /// upsert).
    public var rowID: Int64

    /// The `INTEGER PRIMARY KEY` column of the table, the one that holds
    /// the rowid, or nil if the table has none.
    public var rowIDColumn: String?

    /// The values that were inserted; the rowid column, if any, holds the
    /// rowid of the row.
    public var persistenceContainer: PersistenceContainer
}

/// What a successful insert or update tells the save and update callbacks.
public struct PersistenceSuccess {
    /// The values that were written; after an insert, the rowid column, if
    /// any, holds the rowid of the row.
    public var persistenceContainer: PersistenceContainer

    init(persistenceContainer: PersistenceContainer) {
        self.persistenceContainer = persistenceContainer
    }

    @usableFromInline
    init(_ inserted: InsertionSuccess) {
        self.init(persistenceContainer: inserted.persistenceContainer)
    }
}
