import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

/// A pool on an encrypted file with a `t` table of `count` rows.
func makePool(_ dir: TemporaryDirectory, rows count: Int = 0, configure: (inout Configuration) -> Void = { _ in })
    throws -> DatabasePool
{
    var config = keyed("pool secret")
    configure(&config)
    let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: config)
    try dbPool.write { db in
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT)")
        for index in 0..<count {
            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["row \(index)"])
        }
    }
    return dbPool
}

func rowCount(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT count(*) FROM t")!
}

@Suite struct DatabasePoolTests {
    @Test func thePoolIsInWALMode() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        #expect(try dbPool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func aReadStartedBeforeACommitDoesNotSeeIt() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        let readStarted = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        let counts = LockedValue<[Int]>([])
        let readFinished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? dbPool.read { db in
                let first = try rowCount(db)
                readStarted.signal()
                writeDone.wait()
                let second = try rowCount(db)
                counts.withLock { $0 = [first, second] }
            }
            readFinished.signal()
        }
        readStarted.wait()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('new')") }
        writeDone.signal()
        readFinished.wait()

        #expect(counts.withLock { $0 } == [1, 1])
        #expect(try dbPool.read(rowCount) == 2)
    }

    @Test func aSnapshotKeepsItsState() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 3)
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "DELETE FROM t") }
        #expect(try snapshot.read(rowCount) == 3)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('x')") }
        #expect(try snapshot.read(rowCount) == 3)
        #expect(try dbPool.read(rowCount) == 1)
        let error = #expect(throws: DatabaseError.self) {
            try snapshot.read { db in try db.execute(sql: "DELETE FROM t") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        try snapshot.close()
    }

    @Test func asyncConcurrentReadSeesTheStateAtTheCall() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 2)
        let seen: Int = try await withCheckedThrowingContinuation { continuation in
            do {
                try dbPool.writeWithoutTransaction { db in
                    try db.execute(sql: "INSERT INTO t (value) VALUES ('committed before')")
                    dbPool.asyncConcurrentRead { result in
                        // Give the writer time to commit what follows first.
                        Thread.sleep(forTimeInterval: 0.1)
                        continuation.resume(with: result.flatMap { db in Result { try rowCount(db) } })
                    }
                    try db.execute(sql: "DELETE FROM t")
                    try db.execute(sql: "INSERT INTO t (value) VALUES ('after')")
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        #expect(seen == 3)
        #expect(try await dbPool.read(rowCount) == 1)
    }

    @Test func spawnConcurrentReadIsAnAlias() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        let seen: Int = try await withCheckedThrowingContinuation { continuation in
            dbPool.writeWithoutTransaction { _ in
                dbPool.spawnConcurrentRead { result in
                    continuation.resume(with: result.flatMap { db in Result { try rowCount(db) } })
                }
            }
        }
        #expect(seen == 1)
    }

    @Test func readersAreReadOnly() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        for attempt in [{ try dbPool.read { db in try db.execute(sql: "DELETE FROM t") } },
                        { try dbPool.unsafeRead { db in try db.execute(sql: "DELETE FROM t") } }] {
            let error = #expect(throws: DatabaseError.self) { try attempt() }
            #expect(error?.resultCode == .SQLITE_READONLY)
        }
        #expect(try dbPool.read(rowCount) == 1)
    }

    @Test func readersAreReusedUpToTheMaximum() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1) { $0.maximumReaderCount = 2 }
        let connections = LockedValue(Set<ObjectIdentifier>())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await dbPool.read { db in
                        connections.withLock { _ = $0.insert(ObjectIdentifier(db)) }
                        Thread.sleep(forTimeInterval: 0.005)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(connections.withLock { $0.count } == 2)
    }

    @Test func checkpointAndMaintenance() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 50)
        #expect(try dbPool.read(rowCount) == 50)
        dbPool.releaseMemory()
        dbPool.invalidateReadOnlyConnections()
        #expect(try dbPool.read(rowCount) == 50)
        for mode in [Database.CheckpointMode.passive, .full, .restart, .truncate] {
            try dbPool.checkpoint(mode)
        }
        let walPath = dir.path("pool.sqlite") + "-wal"
        let walSize = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int
        #expect(walSize == 0)
    }

    @Test func genericCodeRunsOnQueuesAndPools() async throws {
        func count(_ reader: some DatabaseReader) async throws -> Int {
            try await reader.read(rowCount)
        }
        func insert(_ writer: some DatabaseWriter) async throws {
            try await writer.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('generic')") }
        }
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT)") }
        for writer in [dbPool as any DatabaseWriter, dbQueue] {
            try await insert(writer)
            #expect(try await count(writer) == 1)
        }
    }
}

@Suite struct DatabasePoolMisuseTests {
    @Test func readingAClosedPoolFails() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        #expect(try await dbPool.read(rowCount) == 1)
        try dbPool.close()
        let error = #expect(throws: DatabaseError.self) { try dbPool.read { try rowCount($0) } as Int }
        #expect(error?.message == "Connection is closed")
        await #expect(throws: DatabaseError.self) { try await dbPool.read(rowCount) }
        // As in GRDB, a write fails at its first statement, with SQLite's
        // message when there is no connection; the hint says what happened.
        let writeError = #expect(throws: DatabaseError.self) { try dbPool.write { try rowCount($0) } as Int }
        #expect(writeError?.resultCode == .SQLITE_MISUSE)
        #expect(writeError?.message == "out of memory")
        #expect(writeError?.sql == "BEGIN IMMEDIATE TRANSACTION")
        #expect(writeError?.hint?.contains("closed") == true)
        // A barrier needs the readers: it throws before its closure runs.
        let barrierError = #expect(throws: DatabaseError.self) { try dbPool.barrierWriteWithoutTransaction { _ in 1 } }
        #expect(barrierError?.message == "Connection is closed")
    }

    /// As in GRDB, `close()` waits for a running read, then closes.
    @Test func closingWaitsForARunningRead() throws {
        try closingWaits { dbPool, inAccess, finishAccess in
            try? dbPool.read { _ in
                inAccess.signal()
                finishAccess.wait()
            }
        }
    }

    /// As in GRDB, `close()` waits for a running write, then closes.
    @Test func closingWaitsForARunningWrite() throws {
        try closingWaits { dbPool, inAccess, finishAccess in
            try? dbPool.write { _ in
                inAccess.signal()
                finishAccess.wait()
            }
        }
    }

    private func closingWaits(
        for access: @escaping @Sendable (DatabasePool, DispatchSemaphore, DispatchSemaphore) -> Void) throws
    {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        let inAccess = DispatchSemaphore(value: 0)
        let finishAccess = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { access(dbPool, inAccess, finishAccess) }
        #expect(inAccess.wait(timeout: .now() + 10) == .success)
        let closed = DispatchSemaphore(value: 0)
        let closeError = LockedValue<(any Error)?>(nil)
        DispatchQueue.global().async {
            do { try dbPool.close() } catch { closeError.withLock { $0 = error } }
            closed.signal()
        }
        // Still waiting while the access runs.
        #expect(closed.wait(timeout: .now() + 0.3) == .timedOut)
        finishAccess.signal()
        #expect(closed.wait(timeout: .now() + 10) == .success)
        #expect(closeError.withLock { $0 } == nil)
        #expect(throws: DatabaseError.self) { try dbPool.read(rowCount) }
    }

    @Test func aReadInsideAReadTraps() async {
        await #expect(processExitsWith: .failure) {
            let dir = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: dir.path("db.sqlite"))
            try dbPool.read { _ in
                try dbPool.read { _ in }
            }
        }
    }
}
