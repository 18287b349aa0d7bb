import Foundation
@testable import GRDBCipher

/// An encrypted queue in `directory`, with `player` and `team` tables
/// (players belong to teams, deleted with their team).
func makeObservedQueue(_ directory: TemporaryDirectory, name: String = "db.sqlite") throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue(path: directory.path(name), configuration: keyed("observation-passphrase"))
    try dbQueue.write { db in try createObservedSchema(db) }
    return dbQueue
}

/// An encrypted pool in `directory`, with the tables of `makeObservedQueue`.
func makeObservedPool(_ directory: TemporaryDirectory, name: String = "db.sqlite") throws -> DatabasePool {
    let dbPool = try DatabasePool(path: directory.path(name), configuration: keyed("observation-passphrase"))
    try dbPool.write { db in try createObservedSchema(db) }
    return dbPool
}

private func createObservedSchema(_ db: Database) throws {
    try db.execute(sql: """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE player (
            id INTEGER PRIMARY KEY,
            teamId INTEGER REFERENCES team(id) ON DELETE CASCADE,
            name TEXT,
            score INTEGER);
        """)
}

/// An observer that writes down every callback, as text.
final class RecordingObserver: TransactionObserver {
    /// The tables whose changes it observes; nil for all.
    let tables: Set<String>?
    var log: [String] = []
    var events: [DatabaseEvent] = []
    /// Thrown by `databaseWillCommit` when set.
    var commitError: (any Error)?
    /// Calls `stopObservingDatabaseChangesUntilNextTransaction()` after the first change.
    var stopsAfterFirstChange = false

    init(tables: Set<String>? = nil) {
        self.tables = tables
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        tables.map { $0.contains(eventKind.tableName) } ?? true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        events.append(event.copy())
        log.append("\(event.kind) \(event.tableName) \(event.rowID)")
        if stopsAfterFirstChange { stopObservingDatabaseChangesUntilNextTransaction() }
    }

    func databaseDidChange() {
        log.append("change")
    }

    func databaseWillCommit() throws {
        log.append("willCommit")
        if let commitError { throw commitError }
    }

    func databaseDidCommit(_ db: Database) {
        log.append("didCommit")
    }

    func databaseDidRollback(_ db: Database) {
        log.append("didRollback")
    }
}

struct ObserverVeto: Error, Equatable {}
