import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct DatabasePoolAPITests {
    @Test func readersOpenLazilyUpToFiveAndInvalidationClosesThem() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        #expect(dbPool.configuration.maximumReaderCount == 5)
        #expect(dbPool.readers.openConnectionCount == 0)
        _ = try await dbPool.read(rowCount)
        _ = try await dbPool.read(rowCount)
        #expect(dbPool.readers.openConnectionCount == 1)

        // Eight reads at once open no more than five readers. The first five
        // to get one stay until all five are inside together (at most 30
        // seconds): five readers, five reads inside, whatever the timing.
        let inside = LockedValue(0)
        let entered = LockedValue(0)
        let maximumInside = LockedValue(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await dbPool.read { _ in
                        let order = entered.withLock { $0 += 1; return $0 }
                        let now = inside.withLock { $0 += 1; return $0 }
                        maximumInside.withLock { $0 = max($0, now) }
                        let deadline = Date(timeIntervalSinceNow: 30)
                        while order <= 5, maximumInside.withLock({ $0 }) < 5, Date() < deadline {
                            Thread.sleep(forTimeInterval: 0.005)
                        }
                        inside.withLock { $0 -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(maximumInside.withLock { $0 } == 5)
        #expect(dbPool.readers.openConnectionCount == 5)

        dbPool.invalidateReadOnlyConnections()
        #expect(dbPool.readers.openConnectionCount == 0)
        _ = try await dbPool.read(rowCount)
        #expect(dbPool.readers.openConnectionCount == 1)
        dbPool.releaseMemory()
        #expect(dbPool.readers.openConnectionCount == 0)
    }

    @Test func callbackAccesses() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let inserted: Int = try await withCheckedThrowingContinuation { continuation in
            dbPool.asyncWrite({ db in
                try db.execute(sql: "INSERT INTO t (value) VALUES ('a'), ('b')")
                return db.changesCount
            }, completion: { _, result in continuation.resume(with: result) })
        }
        #expect(inserted == 2)
        await withCheckedContinuation { continuation in
            dbPool.asyncWriteWithoutTransaction { db in
                try? db.execute(sql: "INSERT INTO t (value) VALUES ('c')")
                continuation.resume()
            }
        }
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            dbPool.asyncRead { result in
                continuation.resume(with: result.flatMap { db in Result { try rowCount(db) } })
            }
        }
        #expect(count == 3)
        let barrierCount: Int = try await withCheckedThrowingContinuation { continuation in
            dbPool.asyncBarrierWriteWithoutTransaction { result in
                continuation.resume(with: result.flatMap { db in Result { try rowCount(db) } })
            }
        }
        #expect(barrierCount == 3)
        let unsafeCount: Int = try await withCheckedThrowingContinuation { continuation in
            dbPool.asyncUnsafeRead { result in
                continuation.resume(with: result.flatMap { db in Result { try rowCount(db) } })
            }
        }
        #expect(unsafeCount == 3)
    }

    @Test func aBarrierWaitsForRunningReadsAndHoldsNewOnesBack() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        let events = LockedValue<[String]>([])
        let readStarted = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? dbPool.read { _ in
                readStarted.signal()
                Thread.sleep(forTimeInterval: 0.2)
                events.withLock { $0.append("read end") }
            }
            readDone.signal()
        }
        #expect(readStarted.wait(timeout: .now() + 10) == .success)
        try dbPool.barrierWriteWithoutTransaction { db in
            events.withLock { $0.append("barrier") }
            try db.execute(sql: "INSERT INTO t (value) VALUES ('x')")
        }
        #expect(readDone.wait(timeout: .now() + 10) == .success)
        #expect(events.withLock { $0 } == ["read end", "barrier"])
    }

    @Test func reentrantAccessesRunOnTheEnclosingConnection() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        let same = try dbPool.write { db in
            try dbPool.unsafeReentrantRead { inner in inner === db }
        }
        #expect(same)
        let count = try dbPool.read { _ in
            try dbPool.unsafeReentrantRead(rowCount)
        }
        #expect(count == 1)
        try dbPool.writeWithoutTransaction { _ in
            try dbPool.unsafeReentrantWrite { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('y')") }
        }
        #expect(try dbPool.read(rowCount) == 2)
    }

    @Test func asyncTwinsOfWriteAndUnsafeRead() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        try await dbPool.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('z')") }
        try await dbPool.barrierWriteWithoutTransaction { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('w')") }
        #expect(try await dbPool.unsafeRead(rowCount) == 2)
    }

    /// As in GRDB: a read does not hold the writer, so a write from inside
    /// it runs (a value observation's fetch may write), and the read keeps
    /// its snapshot.
    @Test func aWriteInsideAReadRunsAndTheReadKeepsItsSnapshot() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let counts = try dbPool.read { db -> (Int, Int) in
            let before = try rowCount(db)
            try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('from a read')") }
            return (before, try rowCount(db))
        }
        #expect(counts == (0, 0))
        #expect(try dbPool.read(rowCount) == 1)
    }

    @Test func aWriteInsideAReadInsideAWriteTraps() async {
        await #expect(processExitsWith: .failure) {
            let dir = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: dir.path("db.sqlite"))
            try dbPool.write { _ in
                try dbPool.read { _ in
                    try dbPool.write { _ in }
                }
            }
        }
    }
}
