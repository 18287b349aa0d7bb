#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// A transaction observer that prints its callbacks, for events of the `player` table.
final class PrintingObserver: TransactionObserver, @unchecked Sendable {  // used on the writer only
    let name: String
    var failsCommit = false
    var stopsAfterFirstChange = false

    init(_ name: String) { self.name = name }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "player"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        out("  \(name): did change \(event.kind) \(event.tableName) rowID=\(event.rowID)")
        if stopsAfterFirstChange { stopObservingDatabaseChangesUntilNextTransaction() }
    }

    func databaseWillCommit() throws {
        out("  \(name): will commit")
        if failsCommit { throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "observer refuses commit") }
    }

    func databaseDidCommit(_ db: Database) { out("  \(name): did commit") }

    func databaseDidRollback(_ db: Database) { out("  \(name): did rollback") }
}

/// The messages of `ValueObservation.print`, kept until the program prints them: they come
/// from the libraries' queues, at times that race with the SQL trace of the writer.
final class ObservationEventLog: @unchecked Sendable {  // guarded by `lock`
    static let shared = ObservationEventLog()
    private let lock = NSLock()
    private var messages: [String] = []

    func append(_ message: String) { lock.withLock { messages.append(message) } }

    /// Prints the messages received so far, grouped by observation (each group in the order
    /// its messages came: the messages of two observations interleave in any order).
    func flush() {
        let messages = lock.withLock { defer { self.messages = [] }; return self.messages }
        heldLines.hold()
        for message in messages { out("  " + message) }
        heldLines.release()
    }
}

/// A text stream for `ValueObservation.print`, which writes one message per event.
struct TranscriptStream: TextOutputStream {
    mutating func write(_ string: String) {
        ObservationEventLog.shared.append(string)
    }
}

/// A flag set on the main queue.
final class MainFlag: @unchecked Sendable {  // main queue only
    var isSet = false
}

/// Runs the main queue until everything it held when called has run: values that an
/// observation scheduled during a write are delivered before this returns.
func drainMainQueue() {
    // Values go through the libraries' reducing queues before the main queue: give them a
    // moment to get there, then run the main queue up to a marker.
    // The values of several observations come in any order: they print grouped by
    // observation (see HeldLines).
    heldLines.hold()
    let pause = Date(timeIntervalSinceNow: 0.05)
    while Date() < pause {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
    }
    let flag = MainFlag()
    DispatchQueue.main.async { flag.isSet = true }
    let deadline = Date(timeIntervalSinceNow: 10)
    while !flag.isSet && Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
    }
    heldLines.release()
    if !flag.isSet { out("TIMEOUT draining the main queue") }
    out("events:")
    ObservationEventLog.shared.flush()
}

/// Creates the `player` and `team` tables, quietly.
func makeObservedTables(_ writer: some DatabaseWriter) throws {
    try quietly {
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                """)
        }
    }
}

let observationPrograms: [Program] = [
    // TransactionObserver callbacks: order, savepoints, rollbacks, failing commits, extents.
    Program("observation-transaction-observer") {
        let dbQueue = try makeQueue()
        try makeObservedTables(dbQueue)
        let first = PrintingObserver("first")
        let second = PrintingObserver("second")
        dbQueue.add(transactionObserver: first)
        dbQueue.add(transactionObserver: second, extent: .nextTransaction)
        step("insert, update, delete, other table") {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
                try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')")
                try db.execute(sql: "UPDATE player SET score = 10 WHERE id = 1")
                try db.execute(sql: "DELETE FROM player WHERE id = 2")
            }
        }
        step("second observer is gone") {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')") }
        }
        step("write without change") { try dbQueue.write { db in try db.execute(sql: "SELECT 1") } }
        step("change of an unobserved table") {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Blue')") }
        }
        step("savepoint rolled back, then released") {
            try dbQueue.write { db in
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, 'David')")
                    return .rollback
                }
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id, name) VALUES (5, 'Eve')")
                    try db.inSavepoint {
                        try db.execute(sql: "UPDATE player SET score = 5 WHERE id = 5")
                        return .rollback
                    }
                    return .commit
                }
                try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 5")
            }
        }
        step("savepoint outside a transaction") {
            try dbQueue.writeWithoutTransaction { db in
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id, name) VALUES (6, 'Fiona')")
                    return .commit
                }
            }
        }
        step("transaction rolled back") {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (7, 'Gary')")
                return .rollback
            }
        }
        step("explicit statements") {
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN; INSERT INTO player (id, name) VALUES (8, 'Henry'); SAVEPOINT s; DELETE FROM player WHERE id = 8; ROLLBACK TO SAVEPOINT s; RELEASE SAVEPOINT s; COMMIT")
            }
        }
        step("autocommit statement") {
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "UPDATE player SET score = score + 1 WHERE id IN (1, 3)")
            }
        }
        first.failsCommit = true
        step("observer fails the commit") {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (9, 'Ivy')") }
        }
        first.failsCommit = false
        first.stopsAfterFirstChange = true
        step("stop observing until next transaction") {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (10, 'Jane'), (11, 'Kim')")
                try db.execute(sql: "DELETE FROM player WHERE id = 10")
            }
        }
        first.stopsAfterFirstChange = false
        step("delete all rows") { try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") } }
        dbQueue.remove(transactionObserver: first)
        step("after removal") {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (12, 'Leo')") }
        }
        step("count") { try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } }
    },
    // DatabaseRegionObservation: which commits notify, with tables and columns.
    Program("observation-region") {
        let dbQueue = try makeQueue()
        try makeObservedTables(dbQueue)
        step("region of a column selection") {
            try dbQueue.read { db in try Table("player").select(Column("name")).databaseRegion(db).description }
        }
        step("region of a filtered request") {
            try dbQueue.read { db in try Table("player").filter(key: 1).databaseRegion(db).description }
        }
        step("region of SQL") {
            try dbQueue.read { db in
                try SQLRequest<Row>(sql: "SELECT name FROM player JOIN team ON team.id = player.id").databaseRegion(db).description
            }
        }
        let table = DatabaseRegionObservation(tracking: Table("player"))
        let names = DatabaseRegionObservation(tracking: Table("player").select(Column("name")))
        let tableCancellable = table.start(in: dbQueue, onError: { out("  table error: \($0)") },
                                           onChange: { _ in out("  table region changed") })
        let namesCancellable = names.start(in: dbQueue, onError: { out("  names error: \($0)") },
                                           onChange: { _ in out("  names region changed") })
        step("insert") { try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") } }
        step("update score") { try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1") } }
        step("update name") { try dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Art'") } }
        step("other table") { try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')") } }
        step("no change") { try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 2 WHERE 0") } }
        step("rolled back") {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "DELETE FROM player")
                return .rollback
            }
        }
        step("savepoint rolled back") {
            try dbQueue.write { db in
                try db.inSavepoint {
                    try db.execute(sql: "DELETE FROM player")
                    return .rollback
                }
                try db.execute(sql: "INSERT INTO team (name) VALUES ('Blue')")
            }
        }
        step("two changes in one transaction") {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
                try db.execute(sql: "UPDATE player SET name = 'B' WHERE id = 2")
            }
        }
        tableCancellable.cancel()
        step("after cancel of one") { try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") } }
        namesCancellable.cancel()
        step("after cancel of both") {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')") }
        }
    },
    // ValueObservation on a DatabaseQueue with the .immediate scheduler: when values come,
    // what is fetched, removeDuplicates, cancellation.
    Program("observation-value-immediate") {
        let dbQueue = try makeQueue()
        try makeObservedTables(dbQueue)
        MainActor.assumeIsolated {
            let observation = ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
                .print("count", to: TranscriptStream())
            out("start")
            let cancellable = observation.start(
                in: dbQueue, scheduling: .immediate,
                onError: { out("  count error: \($0)") },
                onChange: { out("  count value: \($0)") })
            out("started")
            let deduplicated = ValueObservation
                .tracking { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") }
                .removeDuplicates()
            let namesCancellable = deduplicated.start(
                in: dbQueue, scheduling: .immediate,
                onError: { out("  names error: \($0)") },
                onChange: { out("  names value: \($0)") })
            out("started names")
            for (label, sql) in [
                ("insert", "INSERT INTO player (id, name) VALUES (1, 'Arthur')"),
                ("update score", "UPDATE player SET score = 1"),
                ("other table", "INSERT INTO team (name) VALUES ('Red')"),
                ("two inserts", "INSERT INTO player (id, name) VALUES (2, 'Barbara'); INSERT INTO player (id, name) VALUES (3, 'Craig')"),
                ("same name", "UPDATE player SET name = 'Arthur' WHERE id = 1"),
            ] {
                step(label) { try dbQueue.write { db in try db.execute(sql: sql) } }
                out("drain")
                drainMainQueue()
            }
            step("rolled back") {
                try dbQueue.inTransaction { db in
                    try db.execute(sql: "DELETE FROM player")
                    return .rollback
                }
            }
            out("drain")
            drainMainQueue()
            cancellable.cancel()
            out("cancelled count")
            step("after cancel") { try dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 3") } }
            out("drain")
            drainMainQueue()
            namesCancellable.cancel()
            step("after both cancelled") {
                try dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 2") }
            }
            out("drain")
            drainMainQueue()
        }
    },
    // ValueObservation errors: a failing initial fetch, a fetch that fails after a change.
    Program("observation-value-errors") {
        let dbQueue = try makeQueue()
        try makeObservedTables(dbQueue)
        MainActor.assumeIsolated {
            let missing = ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing") }
                .print("missing", to: TranscriptStream())
            let missingCancellable = missing.start(
                in: dbQueue, scheduling: .immediate,
                onError: { out("  missing error: \(describe($0))") },
                onChange: { out("  missing value: \(String(describing: $0))") })
            out("started missing")
            let fragile = ValueObservation
                .tracking { db -> Int in
                    let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                    if count > 1 { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "too many players") }
                    return count
                }
                .print("fragile", to: TranscriptStream())
            let fragileCancellable = fragile.start(
                in: dbQueue, scheduling: .immediate,
                onError: { out("  fragile error: \(describe($0))") },
                onChange: { out("  fragile value: \($0)") })
            out("started fragile")
            for index in 1...3 {
                step("insert \(index)") {
                    try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["p\(index)"]) }
                }
                out("drain")
                drainMainQueue()
            }
            missingCancellable.cancel()
            fragileCancellable.cancel()
            out("cancelled")
            drainMainQueue()
        }
    },
]
