/// How a record's inserts and updates resolve conflicts with the
/// constraints of its table, when the persistence method is given no
/// `onConflict:` argument.
///
/// ```swift
/// struct Player: MutablePersistableRecord {
///     // INSERT OR REPLACE INTO "player" ...
///     static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .abort)
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_conflict.html>
public struct PersistenceConflictPolicy: Sendable {
    /// The conflict resolution of inserts: `INSERT OR ... INTO`.
    public let conflictResolutionForInsert: Database.ConflictResolution

    /// The conflict resolution of updates: `UPDATE OR ...`.
    public let conflictResolutionForUpdate: Database.ConflictResolution

    /// A policy; `.abort`, SQLite's default, writes plain `INSERT` and
    /// `UPDATE` statements.
    public init(insert: Database.ConflictResolution = .abort, update: Database.ConflictResolution = .abort) {
        conflictResolutionForInsert = insert
        conflictResolutionForUpdate = update
    }
}
