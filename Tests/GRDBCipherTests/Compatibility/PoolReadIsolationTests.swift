import Foundation
import Testing
@testable import GRDBCipher

/// A pool's reads see the database as it was when the read began, before
/// the closure's first statement, as in GRDB.
@Suite struct PoolReadIsolationTests {
    /// A WAL pool with a table `t` of one row, and a queue on the same file
    /// that writes as another connection would.
    private func makeDatabases(in dir: TemporaryDirectory) throws -> (DatabasePool, DatabaseQueue) {
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyed("secret"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
        }
        let other = try DatabaseQueue(path: path, configuration: keyed("secret"))
        return (dbPool, other)
    }

    private func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
    }

    @Test func readSeesTheStateAtItsStart() throws {
        let dir = try TemporaryDirectory()
        let (dbPool, other) = try makeDatabases(in: dir)
        let seen = try dbPool.read { db in
            try other.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            return try count(db)
        }
        #expect(seen == 1)
        #expect(try dbPool.read(count) == 2)
    }

    @Test func asyncReadSeesTheStateAtItsStart() async throws {
        let dir = try TemporaryDirectory()
        let (dbPool, other) = try makeDatabases(in: dir)
        let seen = try await dbPool.read { db in
            try other.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
        #expect(seen == 1)
    }

    @Test func callbackReadSeesTheStateAtItsStart() throws {
        let dir = try TemporaryDirectory()
        let (dbPool, other) = try makeDatabases(in: dir)
        let seen = LockedValue<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        dbPool.asyncRead { result in
            defer { done.signal() }
            guard let db = try? result.get() else { return }
            try? other.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            seen.withLock { $0 = try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        }
        done.wait()
        #expect(seen.withLock { $0 } == 1)
    }

    @Test func aSnapshotSeesTheStateAtItsCreation() throws {
        let dir = try TemporaryDirectory()
        let (dbPool, other) = try makeDatabases(in: dir)
        let snapshot = try dbPool.makeSnapshot()
        try other.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try snapshot.read(count) == 1)
        #expect(try dbPool.read(count) == 2)
    }
}
