/// A base class for records: subclass it to get fetching, persistence and
/// change tracking in one type.
///
/// GRDB 7 keeps `Record` for existing code, and recommends structs that
/// adopt the record protocols for new code.
///
/// A subclass overrides ``databaseTableName``, ``init(row:)`` and
/// ``encode(to:)``, and calls `super` from every override:
///
/// ```swift
/// class Player: Record {
///     var id: Int64?
///     var name: String
///     var score: Int
///
///     override class var databaseTableName: String { "player" }
///
///     init(id: Int64? = nil, name: String, score: Int) {
///         self.id = id
///         self.name = name
///         self.score = score
///         super.init()
///     }
///
///     required init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///         score = row["score"]
///         try super.init(row: row)
///     }
///
///     override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["name"] = name
///         container["score"] = score
///     }
///
///     override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted)
///         id = inserted.rowID
///     }
/// }
///
/// let player = Player(name: "Arthur", score: 100)
/// try player.insert(db)
/// player.hasDatabaseChanges    // false
/// player.score = 200
/// try player.updateChanges(db) // UPDATE "player" SET "score"=? WHERE "id"=?
/// ```
///
/// A record remembers the values it was fetched, inserted or updated
/// with, and compares them with what ``encode(to:)`` gives now: see
/// ``hasDatabaseChanges``, ``databaseChanges`` and ``updateChanges(_:)``.
///
/// A record is not `Sendable`: persistence methods update its change
/// tracking.
open class Record: FetchableRecord, TableRecord, PersistableRecord {
    /// The values the database was last known to hold for this record: the
    /// row it was fetched from, or the values it was last inserted or
    /// updated with. Nil for a record that the database does not hold as
    /// it is: a new or deleted one. Change tracking compares against it.
    var referenceRow: Row?

    // MARK: - Initializers

    /// Creates a record that the database does not hold yet: all its
    /// columns count as changes.
    public init() { }

    /// Creates a record from a row.
    ///
    /// A row fetched from the database (or a copy of one) becomes the
    /// reference of change tracking: the record has no changes. A row built
    /// from values does not: the record has all its columns as changes.
    ///
    /// Subclasses decode their properties, then call `super`:
    ///
    /// ```swift
    /// required init(row: Row) throws {
    ///     name = row["name"]
    ///     try super.init(row: row)
    /// }
    /// ```
    ///
    /// - throws: Nothing here; overrides throw their decoding errors.
    public required init(row: Row) throws {
        if row.isFetched {
            // A cursor row changes as the cursor moves: keep its values.
            referenceRow = row.copy()
        }
    }

    // MARK: - Table

    /// The name of the table.
    ///
    /// Override it:
    ///
    /// ```swift
    /// class Player: Record {
    ///     override class var databaseTableName: String { "player" }
    /// }
    /// ```
    ///
    /// GRDB requires the override and traps without it; here the default
    /// is the name ``TableRecord`` derives from the class name (`Player` →
    /// `player`).
    open class var databaseTableName: String {
        DefaultTableNames.name(of: self)
    }

    /// How inserts and updates resolve conflicts when they are given no
    /// `onConflict:` argument; by default, `.abort` for both.
    ///
    /// ```swift
    /// class Player: Record {
    ///     override class var persistenceConflictPolicy: PersistenceConflictPolicy {
    ///         PersistenceConflictPolicy(insert: .replace, update: .replace)
    ///     }
    /// }
    /// ```
    open class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .abort, update: .abort)
    }

    /// The columns that requests of this class select; by default, all
    /// (`SELECT *`).
    ///
    /// ```swift
    /// class PartialPlayer: Record {
    ///     override class var databaseSelection: [any SQLSelectable] {
    ///         [Column("id"), Column("name")]
    ///     }
    /// }
    ///
    /// try PartialPlayer.fetchAll(db)   // SELECT "id", "name" FROM "player"
    /// ```
    open class var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }

    // MARK: - Encoding

    /// Stores the values of the record's columns in `container`; the
    /// primary key must be among them. Does nothing by default: override it.
    ///
    /// ```swift
    /// override func encode(to container: inout PersistenceContainer) throws {
    ///     container["id"] = id
    ///     container["name"] = name
    /// }
    /// ```
    ///
    /// A subclass of a subclass calls `super` to keep the columns of its
    /// parent.
    ///
    /// - throws: Whatever error stops the record from being encoded.
    open func encode(to container: inout PersistenceContainer) throws { }

    // MARK: - Insertion callbacks

    /// Runs before the record is inserted (or upserted); an error stops
    /// the insertion. Overrides call `super`.
    open func willInsert(_ db: Database) throws { }

    /// Wraps the insertion. Overrides call `super` once, which inserts and
    /// makes the inserted values the reference of change tracking:
    ///
    /// ```swift
    /// override func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
    ///     print("will insert")
    ///     try super.aroundInsert(db, insert: insert)
    ///     print("did insert")
    /// }
    /// ```
    ///
    /// - throws: The error of `insert`.
    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        let inserted = try insert()
        referenceRow = Row(inserted.persistenceContainer)
    }

    /// Runs after a successful insertion; the place to store an
    /// auto-incremented id. Overrides call `super`.
    ///
    /// ```swift
    /// override func didInsert(_ inserted: InsertionSuccess) {
    ///     super.didInsert(inserted)
    ///     id = inserted.rowID
    /// }
    /// ```
    open func didInsert(_ inserted: InsertionSuccess) { }

    // MARK: - Update callbacks

    /// Runs before the record is updated; `columns` are the columns asked
    /// for. An error stops the update. Overrides call `super`.
    open func willUpdate(_ db: Database, columns: Set<String>) throws { }

    /// Wraps the update. Overrides call `super` once, which updates and
    /// makes the record's values the reference of change tracking (all of
    /// them, even after an update of some columns, as in GRDB).
    ///
    /// - throws: The error of `update`.
    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        let updated = try update()
        referenceRow = Row(updated.persistenceContainer)
    }

    /// Runs after a successful update. Overrides call `super`.
    open func didUpdate(_ updated: PersistenceSuccess) { }

    // MARK: - Save callbacks

    /// Runs before the record is inserted, updated, saved or upserted: the
    /// place for validation, since an error stops the whole operation.
    /// Overrides call `super`.
    open func willSave(_ db: Database) throws { }

    /// Wraps the insert, update, save or upsert. Overrides call `super`
    /// once, which runs `save`.
    ///
    /// - throws: The error of `save`.
    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    /// Runs after a successful insert, update, save or upsert. Overrides
    /// call `super`.
    open func didSave(_ saved: PersistenceSuccess) { }

    // MARK: - Deletion callbacks

    /// Runs before the record is deleted; an error stops the deletion.
    /// Overrides call `super`.
    open func willDelete(_ db: Database) throws { }

    /// Wraps the deletion. Overrides call `super` once, which deletes and
    /// forgets the reference of change tracking: a deleted record has all
    /// its columns as changes, ready to be inserted again.
    ///
    /// - throws: The error of `delete`.
    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
        referenceRow = nil
    }

    /// Runs after the deletion, telling whether a row was deleted.
    /// Overrides call `super`.
    open func didDelete(deleted: Bool) { }
}

// Persistence methods change `referenceRow`, so one record must not be
// written from two connections at once.
@available(*, unavailable)
extension Record: Sendable { }
