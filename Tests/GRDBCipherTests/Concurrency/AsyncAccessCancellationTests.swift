import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

/// A task-local value that the closures of async accesses must see.
private enum AccessContext {
    @TaskLocal static var requestID: String?
}

/// Cancels the task that runs the caller: the closure of an async access
/// runs inside the task that awaits it.
private func cancelCurrentTask() {
    withUnsafeCurrentTask { $0?.cancel() }
}

/// The writers under test: an encrypted queue and an encrypted pool, each
/// with a `t` table of three rows.
private enum WriterKind: String, CaseIterable, CustomTestStringConvertible {
    case queue, pool
    var testDescription: String { rawValue }

    func make(_ dir: TemporaryDirectory, configure: (inout Configuration) -> Void = { _ in }) throws -> any DatabaseWriter {
        var config = keyed("cancellation")
        configure(&config)
        let writer: any DatabaseWriter
        switch self {
        case .queue: writer = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
        case .pool: writer = try DatabasePool(path: dir.path("db.sqlite"), configuration: config)
        }
        try writer.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)") }
        return writer
    }
}

private func values(_ writer: any DatabaseWriter) throws -> [Int] {
    try writer.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY rowid") }
}

@Suite struct AsyncAccessCancellationTests {
    @Test(arguments: WriterKind.allCases)
    fileprivate func taskLocalValuesReachTheClosures(_ kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try kind.make(dir)
        let seen = try await AccessContext.$requestID.withValue("request-7") {
            [
                try await writer.read { _ in AccessContext.requestID },
                try await writer.unsafeRead { _ in AccessContext.requestID },
                try await writer.write { _ in AccessContext.requestID },
                try await writer.writeWithoutTransaction { _ in AccessContext.requestID },
                try await writer.barrierWriteWithoutTransaction { _ in AccessContext.requestID },
            ]
        }
        #expect(seen == Array(repeating: "request-7", count: 5))
    }

    @Test func aSnapshotReadSeesTaskLocalValues() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try #require(try WriterKind.pool.make(dir) as? DatabasePool)
        let snapshot = try dbPool.makeSnapshot()
        let seen = try await AccessContext.$requestID.withValue("snapshot") {
            try await snapshot.read { _ in AccessContext.requestID }
        }
        #expect(seen == "snapshot")
    }

    /// A cancellation while a long statement runs interrupts it: the access
    /// throws `CancellationError` (not `SQLITE_INTERRUPT`), and the next
    /// access of the same connection runs normally.
    @Test(arguments: WriterKind.allCases)
    fileprivate func cancellingTheTaskInterruptsTheRunningStatement(_ kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        // The function tells when the statement runs. (Waiting on a
        // semaphore would block a thread that the task may need.)
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let signalStart = DatabaseFunction("signalStart", argumentCount: 0, pure: false) { _ in
            startedContinuation.yield()
            return 1
        }
        let writer = try kind.make(dir) { config in
            config.prepareDatabase { db in db.add(function: signalStart) }
        }
        let task = Task {
            try await writer.read { db in
                // Hundreds of millions of rows: minutes unless interrupted.
                try Int.fetchOne(db, sql: """
                    WITH RECURSIVE c(n) AS (SELECT signalStart() UNION ALL SELECT n + 1 FROM c LIMIT 900000000)
                    SELECT COUNT(*) FROM c
                    """)
            }
        }
        // A read that fails before the statement runs ends the wait too.
        Task {
            _ = await task.result
            startedContinuation.finish()
        }
        for await _ in started { break }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self, "\(result)") { try result.get() }
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 3)
    }

    @Test(arguments: WriterKind.allCases)
    fileprivate func cancellingStopsACursorIteration(_ kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try kind.make(dir)
        let count = try await Task {
            try await writer.read { db in
                let cursor = try Int.fetchCursor(
                    db, sql: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 1000) SELECT n FROM c")
                var count = 0
                do {
                    while try cursor.next() != nil {
                        count += 1
                        if count == 10 { cancelCurrentTask() }
                    }
                } catch is CancellationError {
                    return count
                }
                Issue.record("the iteration went on to \(count) rows")
                return count
            }
        }.value
        #expect(count == 10)
    }

    /// A write whose task is cancelled between two statements: the second
    /// does not run, the transaction is rolled back, and the connection
    /// takes the next write.
    @Test(arguments: WriterKind.allCases)
    fileprivate func aCancelledWriteIsRolledBack(_ kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try kind.make(dir)
        let result = await Task {
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (10)")
                cancelCurrentTask()
                try db.execute(sql: "INSERT INTO t VALUES (11)")
            }
        }.result
        #expect(throws: CancellationError.self) { try result.get() }
        // The cancellation on the last line refuses the commit.
        let lastLine = await Task {
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (20)")
                cancelCurrentTask()
            }
        }.result
        #expect(throws: CancellationError.self) { try lastLine.get() }
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (4)") }
        #expect(try values(writer) == [1, 2, 3, 4])
    }

    /// An access whose closure returned is a success, even if the task is
    /// cancelled before the caller resumes.
    @Test(arguments: WriterKind.allCases)
    fileprivate func anAccessThatReturnedIsNotTurnedIntoAnError(_ kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try kind.make(dir)
        let changes = try await Task {
            try await writer.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO t VALUES (4)")
                cancelCurrentTask()
                return db.changesCount
            }
        }.value
        #expect(changes == 1)
        #expect(try values(writer) == [1, 2, 3, 4])
    }

    /// A read cancelled inside its closure ends its read-only mode: the
    /// connection writes again (a queue reads on its writer connection).
    @Test(arguments: WriterKind.allCases)
    fileprivate func aCancelledReadLeavesTheConnectionAsItWas(_ kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try kind.make(dir)
        let result = await Task {
            try await writer.read { db in
                cancelCurrentTask()
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            }
        }.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await writer.write { db in try Bool.fetchOne(db, sql: "PRAGMA query_only") } == false)
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (4)") }
        #expect(try values(writer) == [1, 2, 3, 4])
    }

    /// A pool read cancelled while it waits for a reader connection stops
    /// waiting: it does not hold a place in the line until one is free.
    @Test func aReadCancelledWhileItWaitsForAConnectionStopsWaiting() async throws {
        let dir = try TemporaryDirectory()
        var config = keyed("cancellation")
        config.maximumReaderCount = 1
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: config)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        // A thread of its own holds the only reader.
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        Thread {
            try? dbPool.read { _ in
                enteredContinuation.yield()
                release.wait()
            }
        }.start()
        for await _ in entered { break }
        // Should the wait not stop, the reader is released after a while
        // and the test fails instead of hanging.
        let watchdog = LockedValue((finished: false, fired: false))
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            let fires = watchdog.withLock { state in
                state.fired = !state.finished
                return state.fired
            }
            if fires { release.signal() }
        }
        let task = Task { try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } }
        try await Task.sleep(for: .milliseconds(100)) // most likely waiting by now; either way it must throw
        task.cancel()
        let result = await task.result
        let releasedByTheWatchdog = watchdog.withLock { state in
            state.finished = true
            return state.fired
        }
        #expect(!releasedByTheWatchdog, "the read waited for the connection")
        #expect(throws: CancellationError.self) { try result.get() }
        release.signal()
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    /// Transaction observers read after a commit even if the task that
    /// committed was cancelled meanwhile.
    @Test(arguments: WriterKind.allCases)
    fileprivate func observersReadAfterACommitOfACancelledTask(_ kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try kind.make(dir)
        let observer = CancellingObserver()
        writer.add(transactionObserver: observer)
        try await Task {
            try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (4)") }
        }.value
        #expect(observer.counts.withLock { $0 } == [.success(4)])
    }
}

/// Cancels the committing task just before the commit, then reads once it
/// is done.
private final class CancellingObserver: TransactionObserver, Sendable {
    let counts = LockedValue<[Result<Int, CountError>]>([])
    struct CountError: Error, Equatable { let description: String }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseWillCommit() throws { cancelCurrentTask() }
    func databaseDidCommit(_ db: Database) {
        let count = Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
            .mapError { CountError(description: "\($0)") }
        counts.withLock { $0.append(count) }
    }
    func databaseDidRollback(_ db: Database) {}
}
