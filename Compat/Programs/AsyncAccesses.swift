// Async accesses: task-local values inside the closures, and what Task cancellation does
// before, during and after an access, on a queue and on a pool.
#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// A task-local value that the closures of async accesses print.
enum RequestContext {
    @TaskLocal static var requestID: String?
}

/// The result of an async body, run to its end from a synchronous program.
final class AsyncOutcome<T: Sendable>: @unchecked Sendable {  // written before `done` signals
    var result: Result<T, any Error>?
    let done = DispatchSemaphore(value: 0)
}

/// Runs `body` in a new task and waits for it (at most 60 seconds).
func waitForTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = AsyncOutcome<T>()
    Task {
        do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
        outcome.done.signal()
    }
    guard outcome.done.wait(timeout: .now() + 60) == .success else {
        throw DatabaseError(message: "the task did not end")
    }
    return try outcome.result!.get()
}

/// Cancels the task that runs the caller (an async access's closure runs inside it).
func cancelCurrentTask() {
    withUnsafeCurrentTask { $0?.cancel() }
}

/// Runs an async step and prints what it returned or threw.
func asyncStep<T: Sendable>(_ label: String, _ body: @escaping @Sendable () async throws -> T) {
    step(label) { try waitForTask(body) }
}

/// A transaction observer that reads the database after each commit.
final class ReadingObserver: TransactionObserver, @unchecked Sendable {  // used on the writer only
    var cancelsBeforeCommit = false
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseWillCommit() throws {
        if cancelsBeforeCommit { cancelCurrentTask() }
    }
    func databaseDidCommit(_ db: Database) {
        do {
            out("  observer reads after commit: \(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!)")
        } catch {
            out("  observer reads after commit: THROWS \(describe(error))")
        }
    }
    func databaseDidRollback(_ db: Database) { out("  observer: did rollback") }
}

/// The cancellation steps, on any writer.
func cancellationSteps(_ writer: some DatabaseWriter, _ name: String) throws {
    try quietly {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        }
    }
    section("\(name): task locals")
    asyncStep("read") {
        try await RequestContext.$requestID.withValue("r1") { try await writer.read { _ in RequestContext.requestID } }
    }
    asyncStep("unsafeRead") {
        try await RequestContext.$requestID.withValue("r2") { try await writer.unsafeRead { _ in RequestContext.requestID } }
    }
    asyncStep("write") {
        try await RequestContext.$requestID.withValue("w1") { try await writer.write { _ in RequestContext.requestID } }
    }
    asyncStep("writeWithoutTransaction") {
        try await RequestContext.$requestID.withValue("w2") {
            try await writer.writeWithoutTransaction { _ in RequestContext.requestID }
        }
    }
    asyncStep("barrierWriteWithoutTransaction") {
        try await RequestContext.$requestID.withValue("w3") {
            try await writer.barrierWriteWithoutTransaction { _ in RequestContext.requestID }
        }
    }

    section("\(name): cancelled before the access")
    asyncStep("read") { () async throws -> Int in
        cancelCurrentTask()
        return try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
    }
    asyncStep("write") { () async throws -> Void in
        cancelCurrentTask()
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (0)") }
    }

    section("\(name): cancelled inside the closure")
    asyncStep("read, then a statement") { () async throws -> Int in
        try await writer.read { db in
            cancelCurrentTask()
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
    }
    asyncStep("write, then a statement") { () async throws -> Void in
        try await writer.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (10)")
            cancelCurrentTask()
            try db.execute(sql: "INSERT INTO t VALUES (11)")
        }
    }
    asyncStep("write, last line (the commit is refused)") { () async throws -> Void in
        try await writer.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (20)")
            cancelCurrentTask()
        }
    }
    asyncStep("writeWithoutTransaction, then a statement") { () async throws -> Void in
        try await writer.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (30)")
            cancelCurrentTask()
            try db.execute(sql: "INSERT INTO t VALUES (31)")
        }
    }
    asyncStep("writeWithoutTransaction, last line (completes)") { () async throws -> Int in
        try await writer.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (40)")
            cancelCurrentTask()
            return db.changesCount
        }
    }
    asyncStep("inTransaction inside writeWithoutTransaction") { () async throws -> String in
        try await writer.writeWithoutTransaction { db in
            do {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (50)")
                    cancelCurrentTask()
                    try db.execute(sql: "INSERT INTO t VALUES (51)")
                    return .commit
                }
                return "committed"
            } catch {
                return "\(describe(error)), inside a transaction: \(db.isInsideTransaction)"
            }
        }
    }
    asyncStep("cursor iteration") { () async throws -> String in
        try await writer.read { db in
            let cursor = try Int.fetchCursor(db, sql: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 1000) SELECT n FROM c")
            var count = 0
            do {
                while try cursor.next() != nil {
                    count += 1
                    if count == 10 { cancelCurrentTask() }
                }
                return "iterated \(count)"
            } catch {
                return "after \(count): \(describe(error))"
            }
        }
    }
    asyncStep("savepoint after cancellation") { () async throws -> Void in
        try await writer.writeWithoutTransaction { db in
            cancelCurrentTask()
            try db.inSavepoint { .commit }
        }
    }

    section("\(name): a transaction observer after a commit in a cancelled task")
    let observer = ReadingObserver()
    writer.add(transactionObserver: observer)
    observer.cancelsBeforeCommit = true
    asyncStep("write") { () async throws -> Void in
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (60)") }
    }
    observer.cancelsBeforeCommit = false
    writer.remove(transactionObserver: observer)

    section("\(name): the next accesses")
    asyncStep("write") { () async throws -> Void in
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (70)") }
    }
    step("rows") { try writer.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY rowid") } }
    step("query_only") { try writer.read { db in try Bool.fetchOne(db, sql: "PRAGMA query_only") } }
    step("query_only in a write") { try writer.write { db in try Bool.fetchOne(db, sql: "PRAGMA query_only") } }
}

/// The SQL function that tells when the long statement of
/// ``cancellationOfARunningStatement(_:_:)`` runs: added to every connection.
let startSignal = DispatchSemaphore(value: 0)
func addStartSignal(_ config: inout Configuration) {
    config.prepareDatabase { db in
        db.add(function: DatabaseFunction("signalStart", argumentCount: 0, pure: false) { _ in
            startSignal.signal()
            return 1
        })
    }
}

/// Cancels the task from outside while a statement runs: the statement is interrupted.
func cancellationOfARunningStatement(_ writer: some DatabaseWriter, _ name: String) throws {
    section("\(name): cancelled from outside while a statement runs")
    let outcome = AsyncOutcome<Int>()
    let task = Task {
        do {
            outcome.result = .success(try await writer.read { db in
                // Hundreds of millions of rows: minutes unless interrupted.
                try Int.fetchOne(db, sql: """
                    WITH RECURSIVE c(n) AS (SELECT signalStart() UNION ALL SELECT n + 1 FROM c LIMIT 500000000)
                    SELECT COUNT(*) FROM c
                    """)!
            })
        } catch {
            outcome.result = .failure(error)
        }
        outcome.done.signal()
    }
    guard startSignal.wait(timeout: .now() + 60) == .success else {
        out("read: did not start")
        return
    }
    task.cancel()
    guard outcome.done.wait(timeout: .now() + 60) == .success else {
        out("read: did not end")
        return
    }
    step("read") { try outcome.result!.get() }
    asyncStep("next read") { try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1")! } }
}

let asyncAccessPrograms: [Program] = [
    Program("async-queue") {
        tracePrints = false
        let dbQueue = try makeQueue(traced: false, addStartSignal)
        try cancellationSteps(dbQueue, "queue")
        try cancellationOfARunningStatement(dbQueue, "queue")
        section("queue: inDatabase")
        asyncStep("task local") {
            try await RequestContext.$requestID.withValue("q1") { try await dbQueue.inDatabase { _ in RequestContext.requestID } }
        }
    },
    Program("async-pool") {
        tracePrints = false
        let dbPool = try makePool(addStartSignal)
        try cancellationSteps(dbPool, "pool")
        try cancellationOfARunningStatement(dbPool, "pool")
        section("pool: snapshot")
        let snapshot = try dbPool.makeSnapshot()
        asyncStep("task local") {
            try await RequestContext.$requestID.withValue("s1") { try await snapshot.read { _ in RequestContext.requestID } }
        }
        asyncStep("cancelled") { () async throws -> Int in
            try await snapshot.read { db in
                cancelCurrentTask()
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            }
        }
        asyncStep("then") { try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! } }
    },
]
