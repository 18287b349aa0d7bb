/// The foreign key that ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``
/// declares: its columns, their index, and the `REFERENCES` constraint.
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.belongsTo("team").notNull()     // "teamId" INTEGER NOT NULL REFERENCES "team"("id")
///     t.belongsTo("country").unique()   // "countryCode" TEXT UNIQUE REFERENCES "country"("code")
/// }
/// ```
public final class ForeignKeyDefinition {
    /// How the foreign key columns are indexed.
    enum Indexing {
        case index
        case unique
    }

    /// The prefix of the columns, and the referenced table when `table`
    /// is nil.
    let name: String
    /// The referenced table, if given.
    let table: String?
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let isDeferred: Bool
    var indexing: Indexing?
    /// Set by ``notNull(onConflict:)``.
    var notNullConflictResolution: Database.ConflictResolution?

    init(
        name: String,
        table: String?,
        deleteAction: Database.ForeignKeyAction?,
        updateAction: Database.ForeignKeyAction?,
        isDeferred: Bool,
        isIndexed: Bool)
    {
        self.name = name
        self.table = table
        self.deleteAction = deleteAction
        self.updateAction = updateAction
        self.isDeferred = isDeferred
        self.indexing = isIndexed ? .index : nil
    }

    /// Forbids NULL in the foreign key columns: `NOT NULL`, or
    /// `NOT NULL ON CONFLICT ...` for a resolution other than `ABORT`.
    ///
    /// ```swift
    /// // "teamId" INTEGER NOT NULL REFERENCES "team"("id")
    /// t.belongsTo("team").notNull()
    /// ```
    ///
    /// - parameter conflictResolution: The `ON CONFLICT` clause, if any.
    /// - returns: The foreign key, to refine it further.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = conflictResolution ?? .abort
        return self
    }

    /// Forbids two rows with the same foreign key: a `UNIQUE` constraint
    /// on a single column, a unique index on several, instead of a plain
    /// index.
    ///
    /// ```swift
    /// // One player per country: "countryCode" TEXT UNIQUE REFERENCES "country"("code")
    /// t.belongsTo("country").unique()
    /// ```
    ///
    /// - returns: The foreign key, to refine it further.
    @discardableResult
    public func unique() -> Self {
        indexing = .unique
        return self
    }
}

// A definition is built by one closure, on one thread.
@available(*, unavailable)
extension ForeignKeyDefinition: Sendable { }
