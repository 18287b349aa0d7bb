import CSQLCipher
import Foundation

/// Tells a connection's transaction observers about its changes and the
/// end of its transactions. It exists only while observers are registered:
/// then, and only then, SQLite's commit, rollback and update hooks are
/// installed on the connection.
///
/// How a statement is observed:
/// 1. Before it runs (``statementWillExecute(_:)``), each observer is asked
///    whether it observes the kinds of changes the statement can make
///    (as SQLite's authorizer reported them when it compiled).
/// 2. While it runs, the update hook reports each changed row, told at
///    once to the interested observers, or buffered inside a savepoint.
///    The commit hook asks observers whether the transaction may commit;
///    the rollback hook notes a rollback.
/// 3. After it ran (``statementDidFinish(_:code:)``), observers hear about
///    the commit or the rollback.
final class DatabaseObservationBroker {
    unowned let database: Database

    /// The registered observers, in registration order.
    private(set) var observations: [TransactionObservation] = []

    /// The observers of the statement that runs.
    private var statementObservations: [StatementObservation] = []

    /// Changes made inside savepoints, told when the last one is released.
    private var bufferedEvents: [(event: DatabaseEvent, observations: [StatementObservation])] = []

    private enum Completion {
        case none
        case commit
        case rollback
        case cancelledCommit(any Error)
    }

    /// How the transaction ended while the current statement ran.
    private var completion = Completion.none

    /// The error of the observer that cancelled a commit, for the
    /// statement that committed to throw.
    private var commitCancellationError: (any Error)?

    /// How many notifications are being delivered: the broker must not go
    /// away meanwhile.
    private var notificationDepth = 0

    /// Above zero while the connection runs work of its own that observers
    /// must not hear about (a passphrase change, an export): nothing is
    /// told, and no observer is asked whether to commit.
    var suspensionCount = 0

    init(database: Database) {
        self.database = database
    }

    var isEmpty: Bool { observations.isEmpty }

    var bufferedEventCount: Int { bufferedEvents.count }

    // MARK: - Observers

    func add(_ observer: some TransactionObserver, extent: Database.TransactionObservationExtent) {
        observations.append(TransactionObservation(observer, extent: extent))
    }

    func remove(_ observer: some TransactionObserver) {
        if let index = observations.firstIndex(where: { $0.isWrapping(observer) }) {
            observations.remove(at: index)
        }
    }

    /// Whether the broker may be dropped now: no observer, and no
    /// notification on the stack.
    var canBeDropped: Bool { observations.isEmpty && notificationDepth == 0 }

    func disableUntilNextTransaction(_ observer: some TransactionObserver) {
        guard let observation = observations.first(where: { $0.isWrapping(observer) }) else { return }
        observation.isEnabled = false
        statementObservations.removeAll { $0.observation === observation }
    }

    /// Whether an observer wants the deletions in `table` (asked while a
    /// DELETE compiles, to turn off the truncate optimization).
    func observesDeletions(in table: String) -> Bool {
        observations.contains { $0.observes(eventsOfKind: .delete(tableName: table)) }
    }

    // MARK: - Hooks

    func installHooks(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The hooks also count commits for the connection's change
        // generation, whose own hooks these replace.
        sqlite3_commit_hook(handle, { context in
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            guard broker.transactionWillCommit() else { return 1 }
            broker.database.changeGeneration.willCommit()
            return 0
        }, context)
        sqlite3_rollback_hook(handle, { context in
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            broker.database.changeGeneration.didRollBack()
            broker.transactionDidRollBack()
        }, context)
        sqlite3_update_hook(handle, { context, operation, databaseName, tableName, rowID in
            guard let databaseName, let tableName, let kind = DatabaseEvent.Kind(rawValue: operation) else { return }
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            broker.databaseDidChange(
                with: DatabaseEvent(kind: kind, rowID: rowID, databaseName: databaseName, tableName: tableName))
        }, context)
    }

    static func uninstallHooks(from handle: OpaquePointer) {
        sqlite3_commit_hook(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
        sqlite3_update_hook(handle, nil, nil)
    }

    // MARK: - Statements

    /// Finds the observers of the statement about to run.
    func statementWillExecute(_ statement: Statement) {
        completion = .none
        commitCancellationError = nil
        if suspensionCount > 0 || database.readOnlyDepth > 0 || observations.isEmpty {
            statementObservations = []
            return
        }
        let kinds = statement.accesses.eventKinds
        if kinds.isEmpty {
            statementObservations = []
        } else if kinds.count == 1 {
            // Every change of the statement has this kind.
            statementObservations = observations.compactMap { observation in
                observation.isEnabled && observation.observes(eventsOfKind: kinds[0])
                    ? StatementObservation(observation: observation, observedKinds: nil, statementKinds: kinds)
                    : nil
            }
        } else {
            // Triggers and foreign-key actions: each observer is told the
            // changes of the kinds it observes only.
            statementObservations = observations.compactMap { observation in
                guard observation.isEnabled else { return nil }
                let observed = kinds.filter { observation.observes(eventsOfKind: $0) }
                return observed.isEmpty
                    ? nil
                    : StatementObservation(observation: observation, observedKinds: observed, statementKinds: kinds)
            }
        }
    }

    /// Tells observers how the statement ended the transaction, if it did.
    /// Returns the statement's result code, or `SQLITE_CONSTRAINT_COMMITHOOK`
    /// when an observer cancelled the commit of an empty transaction.
    func statementDidFinish(_ statement: Statement, code: CInt) -> CInt {
        statementObservations = []
        let completion = self.completion
        self.completion = .none
        if suspensionCount > 0 { return code }
        switch completion {
        case .cancelledCommit(let error):
            commitCancellationError = error
            transactionDidEnd(committed: false, notifying: true)
            return code
        case .rollback:
            // A failed statement whose implicit transaction SQLite rolled
            // back is not told (as in GRDB); an explicit rollback is.
            transactionDidEnd(committed: false, notifying: code == SQLITE_DONE || code == SQLITE_ROW)
            return code
        case .commit:
            transactionDidEnd(committed: true, notifying: true)
            return code
        case .none:
            guard code == SQLITE_DONE, let effect = statement.facts.transactionEffect else { return code }
            switch effect {
            case .commitTransaction:
                break
            case .releaseSavepoint where !database.isInsideTransaction:
                break
            default:
                return code
            }
            // An empty deferred transaction committed without SQLite's
            // commit hook: observers hear about it all the same, as in GRDB.
            if transactionWillCommit() {
                transactionDidEnd(committed: true, notifying: true)
                return code
            }
            if case .cancelledCommit(let error) = self.completion {
                commitCancellationError = error
            }
            self.completion = .none
            transactionDidEnd(committed: false, notifying: true)
            return SQLITE_CONSTRAINT | (2 << 8) // SQLITE_CONSTRAINT_COMMITHOOK
        }
    }

    /// The error of the observer that cancelled the last commit, once.
    func takeCommitCancellationError() -> (any Error)? {
        defer { commitCancellationError = nil }
        return commitCancellationError
    }

    /// Called after a transaction ended outside of any statement the
    /// connection runs (the recovery of a failed passphrase change, which
    /// rolls back then closes the connection): the observers hear about
    /// the rollback, or about the transaction that closing ended.
    func transactionDidEndOutsideOfStatements(wasInsideTransaction: Bool) {
        statementObservations = []
        let completion = self.completion
        self.completion = .none
        if suspensionCount > 0 {
            bufferedEvents.removeAll()
            return
        }
        switch completion {
        case .none:
            if wasInsideTransaction {
                transactionDidEnd(committed: false, notifying: true)
            } else {
                bufferedEvents.removeAll()
            }
        case .commit:
            transactionDidEnd(committed: true, notifying: true)
        case .rollback, .cancelledCommit:
            transactionDidEnd(committed: false, notifying: true)
        }
    }

    // MARK: - Savepoints

    func dropBufferedEvents(keeping count: Int) {
        if bufferedEvents.count > count {
            bufferedEvents.removeLast(bufferedEvents.count - count)
        }
    }

    func flushBufferedEvents() {
        guard !bufferedEvents.isEmpty else { return }
        let events = bufferedEvents
        bufferedEvents.removeAll()
        notifying {
            for (event, observations) in events {
                for statementObservation in observations where statementObservation.tracks(event) {
                    statementObservation.observation.databaseDidChange(with: event)
                }
            }
        }
    }

    // MARK: - Events

    private func databaseDidChange(with event: DatabaseEvent) {
        guard !statementObservations.isEmpty else { return }
        if database.savepointStack.isEmpty {
            notifying {
                for statementObservation in statementObservations where statementObservation.tracks(event) {
                    statementObservation.observation.databaseDidChange(with: event)
                }
            }
        } else {
            bufferedEvents.append((event.copy(), statementObservations))
        }
    }

    /// Tells observers that the database changed in ways they could not see.
    func notifyChanges(withEventsOfKinds kinds: [DatabaseEventKind]) {
        notifying {
            for observation in observations where observation.isEnabled {
                if kinds.contains(where: { observation.observes(eventsOfKind: $0) }) {
                    observation.databaseDidChange()
                }
            }
        }
    }

    /// The commit hook: changes buffered in savepoints are told, then every
    /// observer may cancel the commit by throwing. Returns whether the
    /// commit goes on.
    private func transactionWillCommit() -> Bool {
        if suspensionCount > 0 { return true }
        flushBufferedEvents()
        // Read-only transactions (reads of a queue) are not told, as in GRDB.
        if database.readOnlyDepth > 0 {
            completion = .commit
            return true
        }
        do {
            try notifying {
                for observation in observations {
                    try observation.databaseWillCommit()
                }
            }
            completion = .commit
            return true
        } catch {
            completion = .cancelledCommit(error)
            return false
        }
    }

    private func transactionDidRollBack() {
        if suspensionCount > 0 { return }
        if case .cancelledCommit = completion { return }
        completion = .rollback
    }

    private func transactionDidEnd(committed: Bool, notifying shouldNotify: Bool) {
        bufferedEvents.removeAll()
        if shouldNotify && database.readOnlyDepth == 0 {
            let db = database
            notifying {
                // Observers added meanwhile wait for the next transaction.
                // They may read what was committed even if the task that
                // committed is cancelled.
                db.ignoringCancellation {
                    for observation in observations {
                        if committed {
                            observation.databaseDidCommit(db)
                        } else {
                            observation.databaseDidRollback(db)
                        }
                    }
                }
            }
        }
        observations.removeAll { !$0.isObserving }
        for observation in observations {
            observation.isEnabled = true
        }
        database.observationBrokerDidEndTransaction()
    }

    // MARK: - The current broker

    /// Runs `body` with this broker as the thread's current one, for
    /// ``TransactionObserver/stopObservingDatabaseChangesUntilNextTransaction()``.
    private func notifying<T>(_ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(currentBrokerKey)
        pthread_setspecific(currentBrokerKey, Unmanaged.passUnretained(self).toOpaque())
        notificationDepth += 1
        defer {
            notificationDepth -= 1
            pthread_setspecific(currentBrokerKey, previous)
        }
        return try body()
    }

    /// The broker that notifies observers on this thread, if any.
    static var current: DatabaseObservationBroker? {
        pthread_getspecific(currentBrokerKey).map {
            Unmanaged<DatabaseObservationBroker>.fromOpaque($0).takeUnretainedValue()
        }
    }
}

/// The thread-specific slot of the broker that notifies observers.
private let currentBrokerKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

extension DatabaseObservationBroker: StatementDeletionObserver {}

extension DatabaseObservationBroker: DatabaseStatementListener {
    func connectionDidReopen(on handle: SQLiteConnection, wasInsideTransaction: Bool) {
        installHooks(on: handle)
        transactionDidEndOutsideOfStatements(wasInsideTransaction: wasInsideTransaction)
    }
}
