/// An object told about the changes made by a database connection and
/// about the end of its transactions.
///
/// Register an observer with ``Database/add(transactionObserver:extent:)``
/// or, on a queue or pool, ``DatabaseWriter/add(transactionObserver:extent:)``.
/// All methods are called on the writer connection's thread, in the
/// order of the changes:
///
/// - ``databaseDidChange(with:)`` for each inserted, updated or deleted
///   row, in the tables the observer ``observes(eventsOfKind:)``,
///   including rows deleted by foreign-key cascades and triggers. Changes
///   made inside a savepoint are told when the savepoint is released, and
///   never when it is rolled back.
/// - ``databaseWillCommit()`` before a transaction commits: throwing
///   rolls the transaction back, and the statement that committed throws
///   that error.
/// - ``databaseDidCommit(_:)`` or ``databaseDidRollback(_:)`` when the
///   transaction has ended.
///
/// ```swift
/// final class PlayerObserver: TransactionObserver {
///     var changed = false
///     func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
///         eventKind.tableName == "player"
///     }
///     func databaseDidChange(with event: DatabaseEvent) {
///         changed = true
///         stopObservingDatabaseChangesUntilNextTransaction()
///     }
///     func databaseDidCommit(_ db: Database) {
///         if changed { print("players changed") }
///         changed = false
///     }
///     func databaseDidRollback(_ db: Database) { changed = false }
/// }
/// ```
public protocol TransactionObserver: AnyObject {
    /// Whether changes of this kind should be told to
    /// ``databaseDidChange(with:)``. Asked before each statement runs.
    ///
    /// Observing deletions in a table makes SQLite delete its rows one by
    /// one (no [truncate optimization](https://www.sqlite.org/lang_delete.html#the_truncate_optimization)),
    /// so that each deletion is told.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// Called when the database changed in a way the connection could not
    /// see row by row (see ``Database/notifyChanges(in:)``).
    func databaseDidChange()

    /// Called for each row inserted, updated or deleted in an observed
    /// table. The change is not committed yet.
    ///
    /// The event is only valid during this call: store `event.copy()`.
    /// This method must not use the database connection.
    func databaseDidChange(with event: DatabaseEvent)

    /// Called before a transaction commits. Throw to roll it back: the
    /// statement that commits (or the `write` that runs it) throws this
    /// error, and ``databaseDidRollback(_:)`` follows.
    ///
    /// This method must not use the database connection.
    ///
    /// - throws: The error that cancels the commit.
    func databaseWillCommit() throws

    /// Called when a transaction has committed.
    func databaseDidCommit(_ db: Database)

    /// Called when a transaction has been rolled back.
    func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
    /// Does nothing: the commit goes on.
    public func databaseWillCommit() throws { }

    /// Does nothing.
    public func databaseDidChange() { }

    /// Stops telling this observer about changes until the current
    /// transaction ends; ``databaseWillCommit()``, ``databaseDidCommit(_:)``
    /// and ``databaseDidRollback(_:)`` are still called.
    ///
    /// Call it from ``databaseDidChange(with:)`` or ``databaseDidChange()``,
    /// when the observer knows enough. Elsewhere it does nothing (GRDB traps).
    public func stopObservingDatabaseChangesUntilNextTransaction() {
        DatabaseObservationBroker.current?.disableUntilNextTransaction(self)
    }
}
