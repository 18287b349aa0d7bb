#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Every kind of access to a closed queue, pool or snapshot: with a closure that runs a
// statement and with one that runs none, blocking, async, and with callbacks. What each
// throws (or returns), and the SQL it runs.

/// The text a callback-based access hands back, once.
final class CallbackOutcome: @unchecked Sendable {  // written before `done` signals
    var text = ""
    let done = DispatchSemaphore(value: 0)

    func finish(_ text: String) {
        self.text = text
        done.signal()
    }
}

/// Runs an access that reports through a callback, and prints what it reported.
func callbackStep(_ label: String, _ start: (CallbackOutcome) -> Void) {
    let outcome = CallbackOutcome()
    start(outcome)
    if outcome.done.wait(timeout: .now() + 60) == .timedOut {
        out("\(label): no callback")
    } else {
        out("\(label): \(outcome.text)")
    }
}

/// What a callback received: a value, or an error.
func describeResult<T>(_ result: Result<T, any Error>) -> String {
    switch result {
    case .success(let value): return String(reflecting: value)
    case .failure(let error): return "THROWS \(describe(error))"
    }
}

/// What a callback that receives a connection (or the error that replaced it) reports: the
/// error, or what a count of the table gives.
func countIn(_ result: Result<Database, any Error>) -> String {
    describeResult(result.flatMap { db in Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } })
}

/// One access to a closed reader or writer, printed as a step.
struct ClosedAccess<Connection>: Sendable {
    let label: String
    let run: @Sendable (Connection) -> Void

    init(_ label: String, _ run: @escaping @Sendable (Connection) -> Void) {
        self.label = label
        self.run = run
    }
}

let closedCount: @Sendable (Database) throws -> Int? = { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
let closedInsert: @Sendable (Database) throws -> Void = { try $0.execute(sql: "INSERT INTO t DEFAULT VALUES") }

/// The read accesses of any reader.
let closedReadAccesses: [ClosedAccess<any DatabaseReader>] = [
    ClosedAccess("read-statement") { reader in step("read, statement") { try reader.read(closedCount) } },
    ClosedAccess("read-none") { reader in step("read, no statement") { try reader.read { _ in 1 } } },
    ClosedAccess("unsafe-read-statement") { reader in
        step("unsafeRead, statement") { try reader.unsafeRead(closedCount) }
    },
    ClosedAccess("unsafe-read-none") { reader in step("unsafeRead, no statement") { try reader.unsafeRead { _ in 1 } } },
    ClosedAccess("reentrant-read-statement") { reader in
        step("unsafeReentrantRead, statement") { try reader.unsafeReentrantRead(closedCount) }
    },
    ClosedAccess("reentrant-read-none") { reader in
        step("unsafeReentrantRead, no statement") { try reader.unsafeReentrantRead { _ in 1 } }
    },
    ClosedAccess("async-read-statement") { reader in
        asyncStep("async read, statement") { try await reader.read(closedCount) }
    },
    ClosedAccess("async-read-none") { reader in asyncStep("async read, no statement") { try await reader.read { _ in 1 } } },
    ClosedAccess("async-unsafe-read-statement") { reader in
        asyncStep("async unsafeRead, statement") { try await reader.unsafeRead(closedCount) }
    },
    ClosedAccess("async-unsafe-read-none") { reader in
        asyncStep("async unsafeRead, no statement") { try await reader.unsafeRead { _ in 1 } }
    },
    ClosedAccess("callback-read") { reader in
        callbackStep("asyncRead") { outcome in reader.asyncRead { outcome.finish(countIn($0)) } }
    },
    ClosedAccess("callback-unsafe-read") { reader in
        callbackStep("asyncUnsafeRead") { outcome in reader.asyncUnsafeRead { outcome.finish(countIn($0)) } }
    },
]

/// The write accesses of any writer.
let closedWriteAccesses: [ClosedAccess<any DatabaseWriter>] = [
    ClosedAccess("write-statement") { writer in step("write, statement") { try writer.write(closedInsert) } },
    ClosedAccess("write-none") { writer in step("write, no statement") { try writer.write { _ in 1 } } },
    ClosedAccess("write-without-transaction-statement") { writer in
        step("writeWithoutTransaction, statement") { try writer.writeWithoutTransaction(closedInsert) }
    },
    ClosedAccess("write-without-transaction-none") { writer in
        step("writeWithoutTransaction, no statement") { try writer.writeWithoutTransaction { _ in 1 } }
    },
    ClosedAccess("barrier-statement") { writer in
        step("barrierWriteWithoutTransaction, statement") { try writer.barrierWriteWithoutTransaction(closedInsert) }
    },
    ClosedAccess("barrier-none") { writer in
        step("barrierWriteWithoutTransaction, no statement") { try writer.barrierWriteWithoutTransaction { _ in 1 } }
    },
    ClosedAccess("reentrant-write-statement") { writer in
        step("unsafeReentrantWrite, statement") { try writer.unsafeReentrantWrite(closedInsert) }
    },
    ClosedAccess("reentrant-write-none") { writer in
        step("unsafeReentrantWrite, no statement") { try writer.unsafeReentrantWrite { _ in 1 } }
    },
    ClosedAccess("async-write-statement") { writer in
        asyncStep("async write, statement") { try await writer.write(closedInsert) }
    },
    ClosedAccess("async-write-none") { writer in
        asyncStep("async write, no statement") { try await writer.write { _ in 1 } }
    },
    ClosedAccess("async-write-without-transaction-statement") { writer in
        asyncStep("async writeWithoutTransaction, statement") { try await writer.writeWithoutTransaction(closedInsert) }
    },
    ClosedAccess("async-write-without-transaction-none") { writer in
        asyncStep("async writeWithoutTransaction, no statement") { try await writer.writeWithoutTransaction { _ in 1 } }
    },
    ClosedAccess("async-barrier-statement") { writer in
        asyncStep("async barrierWriteWithoutTransaction, statement") {
            try await writer.barrierWriteWithoutTransaction(closedInsert)
        }
    },
    ClosedAccess("async-barrier-none") { writer in
        asyncStep("async barrierWriteWithoutTransaction, no statement") {
            try await writer.barrierWriteWithoutTransaction { _ in 1 }
        }
    },
    ClosedAccess("callback-write-statement") { writer in
        callbackStep("asyncWrite, statement") { outcome in
            writer.asyncWrite(closedInsert, completion: { _, result in outcome.finish(describeResult(result)) })
        }
    },
    ClosedAccess("callback-write-none") { writer in
        callbackStep("asyncWrite, no statement") { outcome in
            writer.asyncWrite({ _ in 1 }, completion: { _, result in outcome.finish(describeResult(result)) })
        }
    },
    ClosedAccess("callback-write-without-transaction") { writer in
        callbackStep("asyncWriteWithoutTransaction") { outcome in
            writer.asyncWriteWithoutTransaction { db in outcome.finish(describeResult(Result { try closedInsert(db) })) }
        }
    },
    ClosedAccess("callback-barrier") { writer in
        callbackStep("asyncBarrierWriteWithoutTransaction") { outcome in
            writer.asyncBarrierWriteWithoutTransaction { result in
                outcome.finish(describeResult(result.flatMap { db in Result { try closedInsert(db) } }))
            }
        }
    },
]

/// The accesses of a database queue of its own.
let closedQueueAccesses: [ClosedAccess<DatabaseQueue>] = [
    ClosedAccess("in-database-statement") { dbQueue in
        step("inDatabase, statement") { try dbQueue.inDatabase(closedCount) }
    },
    ClosedAccess("in-database-none") { dbQueue in step("inDatabase, no statement") { dbQueue.inDatabase { _ in 1 } } },
    ClosedAccess("in-transaction") { dbQueue in step("inTransaction") { try dbQueue.inTransaction { _ in .commit } } },
    ClosedAccess("make-statement") { dbQueue in
        step("makeStatement") { try dbQueue.inDatabase { try $0.makeStatement(sql: "SELECT 1").sql } }
    },
    ClosedAccess("cached-statement") { dbQueue in
        step("cachedStatement") { try dbQueue.inDatabase { try $0.cachedStatement(sql: "SELECT 1").sql } }
    },
    ClosedAccess("execute-several") { dbQueue in
        step("execute, two statements") { try dbQueue.inDatabase { try $0.execute(sql: "SELECT 1; SELECT 2") } }
    },
]

/// A table `t` with one row, made quietly.
func makeClosingTable(_ writer: some DatabaseWriter) throws {
    try quietly {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t DEFAULT VALUES")
        }
    }
}

/// A closed queue in a program of its own for each access: some accesses crash GRDB 7.10
/// (a closed connection's handle is used without a check), and a crash ends its program.
func closedQueuePrograms() -> [Program] {
    func program(_ name: String, _ body: @escaping @Sendable (DatabaseQueue) -> Void) -> Program {
        Program("closed-queue-\(name)") {
            let dbQueue = try makeQueue()
            try makeClosingTable(dbQueue)
            step("close") { try dbQueue.close() }
            body(dbQueue)
        }
    }
    return closedReadAccesses.map { access in program(access.label) { access.run($0) } }
        + closedWriteAccesses.map { access in program(access.label) { access.run($0) } }
        + closedQueueAccesses.map { access in program(access.label, access.run) }
}

let closedAccessPrograms: [Program] = closedQueuePrograms() + [
    Program("closed-queue-twice") {
        let dbQueue = try makeQueue()
        try makeClosingTable(dbQueue)
        step("close") { try dbQueue.close() }
        step("close again") { try dbQueue.close() }
    },
    Program("closed-pool-accesses") {
        let dbPool = try makePool()
        try makeClosingTable(dbPool)
        // A reader connection exists before the close.
        step("read before the close") { try dbPool.read(closedCount) }
        step("close") { try dbPool.close() }
        step("close again") { try dbPool.close() }
        for access in closedReadAccesses { access.run(dbPool) }
        for access in closedWriteAccesses { access.run(dbPool) }
        step("writeInTransaction") { try dbPool.writeInTransaction { _ in .commit } }
        callbackStep("asyncConcurrentRead") { outcome in
            dbPool.writeWithoutTransaction { _ in
                dbPool.asyncConcurrentRead { outcome.finish(countIn($0)) }
            }
        }
        callbackStep("spawnConcurrentRead") { outcome in
            dbPool.writeWithoutTransaction { _ in
                dbPool.spawnConcurrentRead { outcome.finish(countIn($0)) }
            }
        }
        step("makeSnapshot") { try dbPool.makeSnapshot(); return "made" }
    },
    Program("closed-pool-without-readers-accesses") {
        let dbPool = try makePool()
        try makeClosingTable(dbPool)
        step("close") { try dbPool.close() }
        for access in closedReadAccesses { access.run(dbPool) }
        step("write") { try dbPool.write(closedInsert) }
    },
    Program("closed-snapshot-accesses") {
        let dbPool = try makePool()
        try makeClosingTable(dbPool)
        let snapshot = try dbPool.makeSnapshot()
        step("close") { try snapshot.close() }
        step("close again") { try snapshot.close() }
        for access in closedReadAccesses { access.run(snapshot) }
        section("the pool")
        step("read") { try dbPool.read(closedCount) }
        step("write") { try dbPool.write(closedInsert) }
    },
    Program("snapshot-released") {
        let dbPool = try makePool()
        try makeClosingTable(dbPool)
        step("makeSnapshot, released") { try dbPool.makeSnapshot(); return "made" }
        step("makeSnapshot, read, released") { try dbPool.makeSnapshot().read(closedCount) }
        step("read") { try dbPool.read(closedCount) }
    },
    Program("closed-pool-snapshot-accesses") {
        let dbPool = try makePool()
        try makeClosingTable(dbPool)
        let snapshot = try dbPool.makeSnapshot()
        step("close the pool") { try dbPool.close() }
        section("the snapshot of the closed pool")
        step("read") { try snapshot.read(closedCount) }
        step("close the snapshot") { try snapshot.close() }
        step("read after") { try snapshot.read(closedCount) }
    },
]
