import Foundation
import Testing
@testable import GRDBCipher

/// Pool and snapshot details that GRDB 7 code meets.
@Suite struct PoolDetailsTests {
    @Test func theWriterKeepsTheConfiguredBusyModeAndReadersWait() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyed("secret"))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        // Another connection holds the write lock: the pool's writer, with
        // the default busy mode (immediate error), fails at once.
        let other = try DatabaseQueue(path: path, configuration: keyed("secret"))
        try other.inDatabase { otherDB in
            try otherDB.beginTransaction(.immediate)
            let start = Date()
            let error = #expect(throws: DatabaseError.self) {
                try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            #expect(error?.resultCode == .SQLITE_BUSY)
            #expect(Date().timeIntervalSince(start) < 5)
            // Readers are not blocked by a writer in WAL mode.
            #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
            try otherDB.rollback()
        }
    }

    @Test func walAndShmFilesExistOnceAPoolIsOpen() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyed("secret"))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        try dbPool.close()
    }

    @Test func closingWithAliveStatementsThrowsAndLeavesTheQueueOpen() throws {
        let dbQueue = try DatabaseQueue()
        var statement: Statement? = try dbQueue.inDatabase { try $0.makeStatement(sql: "SELECT 1") }
        let error = #expect(throws: DatabaseError.self) { try dbQueue.close() }
        #expect(error?.resultCode == .SQLITE_BUSY)
        // Still open and usable.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
        statement = nil
        _ = statement
        try dbQueue.close()
    }

    @Test func closingAPoolWithAliveStatementsThrowsAndLeavesItOpen() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        var statement: Statement? = try dbPool.writeWithoutTransaction { try $0.makeStatement(sql: "SELECT 1") }
        #expect(throws: DatabaseError.self) { try dbPool.close() }
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
        statement = nil
        _ = statement
        try dbPool.close()
    }

    @Test func aSnapshotCanBeReadFromInsideAPoolAccess() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        let counts = try dbPool.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!, try snapshot.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! })
        }
        #expect(counts.0 == 2 && counts.1 == 1)
        let fromWrite = try dbPool.write { _ in try snapshot.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! } }
        #expect(fromWrite == 1)
        #expect(try snapshot.read { _ in try snapshot.unsafeReentrantRead { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! } } == 1)
        // GRDB's safe name for nested snapshot reads, through the protocol too.
        let nested = try snapshot.read { outer in
            try snapshot.reentrantRead { inner in (inner === outer, try Int.fetchOne(inner, sql: "SELECT COUNT(*) FROM t")!) }
        }
        #expect(nested.0 && nested.1 == 1)
        func countThroughProtocol(_ reader: some DatabaseSnapshotReader) throws -> Int {
            try reader.reentrantRead { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! }
        }
        #expect(try countThroughProtocol(snapshot) == 1)
    }
}
