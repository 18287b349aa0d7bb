/// A record that can insert, update, save, upsert and delete its row.
///
/// Adopt it, rather than ``PersistableRecord``, when the table has an
/// auto-incremented primary key and the record is a struct that stores
/// the inserted id in ``didInsert(_:)``:
///
/// ```swift
/// struct Player: Encodable, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///     var score: Int
///
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
/// }
///
/// var player = Player(id: nil, name: "Arthur", score: 100)
/// try player.insert(db)   // INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)
/// player.id               // the inserted id
/// ```
///
/// The callbacks run in this order:
/// - insert (and upsert): `willSave`, `aroundSave`, `willInsert`,
///   `aroundInsert`, `didInsert`, `didSave`;
/// - update: `willSave`, `aroundSave`, `willUpdate`, `aroundUpdate`,
///   `didUpdate`, `didSave`;
/// - delete: `willDelete`, `aroundDelete`, `didDelete`.
///
/// Callbacks run only for the methods of record instances, not for type
/// methods, batch updates or raw SQL. A `did...` callback does not mean
/// that the change is on disk: the transaction may still roll back.
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// How inserts and updates resolve conflicts when they are given no
    /// `onConflict:` argument; by default, `.abort` for both.
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    // MARK: Insertion callbacks

    /// Runs before the record is inserted (or upserted); an error stops
    /// the insertion. Does nothing by default.
    mutating func willInsert(_ db: Database) throws

    /// Wraps the insertion: call `insert` once, and rethrow its error. By
    /// default, calls `insert`.
    ///
    /// ```swift
    /// func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
    ///     print("will insert")
    ///     let inserted = try insert()
    ///     print("did insert row \(inserted.rowID)")
    /// }
    /// ```
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws

    /// Runs after a successful insertion; the place to store an
    /// auto-incremented id. Does nothing by default.
    mutating func didInsert(_ inserted: InsertionSuccess)

    // MARK: Update callbacks

    /// Runs before the record is updated; `columns` are the columns asked
    /// for. An error stops the update. Does nothing by default.
    func willUpdate(_ db: Database, columns: Set<String>) throws

    /// Wraps the update: call `update` once, and rethrow its error. By
    /// default, calls `update`.
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws

    /// Runs after a successful update. Does nothing by default.
    func didUpdate(_ updated: PersistenceSuccess)

    // MARK: Save callbacks

    /// Runs before the record is inserted, updated, saved or upserted; the
    /// place for validation, since an error stops the whole operation.
    /// Does nothing by default.
    ///
    /// ```swift
    /// func willSave(_ db: Database) throws {
    ///     if url.host == nil { throw ValidationError("url must be absolute.") }
    /// }
    /// ```
    func willSave(_ db: Database) throws

    /// Wraps the insert, update, save or upsert: call `save` once, and
    /// rethrow its error. By default, calls `save`.
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws

    /// Runs after a successful insert, update, save or upsert. Does nothing
    /// by default.
    func didSave(_ saved: PersistenceSuccess)

    // MARK: Deletion callbacks

    /// Runs before the record is deleted; an error stops the deletion.
    /// Does nothing by default.
    func willDelete(_ db: Database) throws

    /// Wraps the deletion: call `delete` once (it returns whether a row was
    /// deleted), and rethrow its error. By default, calls `delete`.
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws

    /// Runs after the deletion, telling whether a row was deleted. Does
    /// nothing by default.
    func didDelete(deleted: Bool)
}

extension MutablePersistableRecord {
    /// `.abort` for inserts and updates.
    public static var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .abort, update: .abort)
    }

    /// Does nothing.
    @inlinable
    public mutating func willInsert(_ db: Database) throws { }

    /// Calls `insert`.
    @inlinable
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        _ = try insert()
    }

    /// Does nothing.
    @inlinable
    public mutating func didInsert(_ inserted: InsertionSuccess) { }

    /// Does nothing.
    public func willUpdate(_ db: Database, columns: Set<String>) throws { }

    /// Calls `update`.
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        _ = try update()
    }

    /// Does nothing.
    public func didUpdate(_ updated: PersistenceSuccess) { }

    /// Does nothing.
    @inlinable
    public func willSave(_ db: Database) throws { }

    /// Calls `save`.
    @inlinable
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    /// Does nothing.
    @inlinable
    public func didSave(_ saved: PersistenceSuccess) { }

    /// Does nothing.
    public func willDelete(_ db: Database) throws { }

    /// Calls `delete`.
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
    }

    /// Does nothing.
    public func didDelete(deleted: Bool) { }
}

extension MutablePersistableRecord {
    /// The error of an `around...` callback that returned without calling
    /// its action, or without rethrowing the action's error. Thrown, not
    /// trapped, as GRDB does: it only shows when the database fails.
    @usableFromInline
    func persistenceCallbackMisuse(_ callbackName: String) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "Incorrect implementation of the `\(Self.self).\(callbackName)` persistence callback: "
                + "the action function was not called, or its error was not rethrown.")
    }

    /// Runs `body`, which writes the record, inside the save callbacks:
    /// `willSave`, then `aroundSave` around `body`, then `didSave`.
    ///
    /// Not generic: unspecialized generic code pays for the metadata of
    /// its generic tuples and optionals on every call, which doubled the
    /// cost of an insert (callgrind). Inlinable, with the callbacks' default
    /// implementations: the client module specializes it for its record
    /// type, and the callbacks that do nothing cost nothing.
    @inlinable
    mutating func withSaveCallbacks(_ db: Database, _ body: (inout Self) throws -> PersistenceSuccess) throws {
        try willSave(db)
        var success: PersistenceSuccess?
        try aroundSave(db) {
            let saved = try body(&self)
            success = saved
            return saved
        }
        guard var saved = success else { throw persistenceCallbackMisuse("aroundSave") }
        success = nil
        didSave(saved)
        // The last reference to the container, unless a callback kept one.
        saved.persistenceContainer.recycle()
    }

    /// Runs `body` inside the save callbacks, as
    /// ``withSaveCallbacks(_:_:)``, and returns what it fetched.
    mutating func withSaveCallbacksFetching<T>(
        _ db: Database, _ body: (inout Self) throws -> (PersistenceSuccess, T)) throws -> T
    {
        var fetched: T?
        try withSaveCallbacks(db) { record in
            let (success, value) = try body(&record)
            fetched = value
            return success
        }
        // withSaveCallbacks returns only after `body` succeeded.
        return fetched!
    }
}
