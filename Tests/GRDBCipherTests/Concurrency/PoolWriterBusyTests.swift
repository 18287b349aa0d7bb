import Foundation
import Testing
@testable import GRDBCipher

/// A pool's writer never meets `SQLITE_BUSY` from its own readers, on the
/// default configuration (an immediate busy error, as in GRDB): in WAL mode
/// readers do not block the writer, so nothing the pool does on its reader
/// connections may take a lock that `BEGIN IMMEDIATE` can meet.
@Suite struct PoolWriterBusyTests {
    /// How many times the stress runs: 2, or GRDBCIPHER_STRESS_REPETITIONS.
    static let repetitions = Int(ProcessInfo.processInfo.environment["GRDBCIPHER_STRESS_REPETITIONS"] ?? "") ?? 2

    /// One writer doing 2,000 two-insert transactions, four readers doing
    /// 2,000 two-count reads each, after a snapshot and a concurrent read
    /// were used on the same pool.
    private func useASnapshotAndAConcurrentRead(_ dbPool: DatabasePool) throws {
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS a (id INTEGER PRIMARY KEY); CREATE TABLE IF NOT EXISTS b (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO a DEFAULT VALUES; INSERT INTO b DEFAULT VALUES")
        }
        let snapshot = try dbPool.makeSnapshot()
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM a") } ?? 0 > 0)
        let concurrentRead = DispatchSemaphore(value: 0)
        try dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO a DEFAULT VALUES; INSERT INTO b DEFAULT VALUES")
            dbPool.asyncConcurrentRead { result in
                _ = try? result.get().execute(sql: "SELECT count(*) FROM a")
                concurrentRead.signal()
            }
        }
        concurrentRead.wait()
        try snapshot.close()
    }

    private func stress(_ dbPool: DatabasePool) async throws {
        try useASnapshotAndAConcurrentRead(dbPool)

        let inconsistencies = LockedValue(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<2_000 {
                    try await dbPool.write { db in
                        try db.execute(sql: "INSERT INTO a DEFAULT VALUES")
                        try db.execute(sql: "INSERT INTO b DEFAULT VALUES")
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 {
                        let (a, b) = try await dbPool.read { db in
                            (try Int.fetchOne(db, sql: "SELECT count(*) FROM a")!,
                             try Int.fetchOne(db, sql: "SELECT count(*) FROM b")!)
                        }
                        if a != b { inconsistencies.withLock { $0 += 1 } }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inconsistencies.withLock { $0 } == 0)
    }

    /// Failed about once in 60 runs on a 2-core host with two busy loops
    /// (GRDBCIPHER_STRESS_REPETITIONS=150), before the pool's writer waited
    /// for the lock of the WAL index header race; 300 runs passed after.
    @Test func readersNeverMakeTheWriterBusyOnTheDefaultConfiguration() async throws {
        for repetition in 0..<Self.repetitions {
            let dir = try TemporaryDirectory()
            var config = keyed("pool secret")
            config.maximumReaderCount = 4
            guard case .immediateError = config.busyMode else {
                Issue.record("the default busy mode is GRDB's immediate error")
                return
            }
            let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: config)
            do {
                try await stress(dbPool)
            } catch {
                Issue.record("repetition \(repetition) of \(Self.repetitions): \(error)")
                return
            }
            try dbPool.close()
        }
    }
}
