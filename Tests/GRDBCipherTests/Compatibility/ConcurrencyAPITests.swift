import Foundation
import Testing
@testable import GRDBCipher

/// GRDB 7 APIs of queues, pools and snapshots.
@Suite struct ConcurrencyAPITests {
    private func makePool(_ dir: TemporaryDirectory) throws -> DatabasePool {
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
        }
        return dbPool
    }

    @Test func queueInTransactionCommitsOrRollsBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        var statements: [String] = []
        dbQueue.inDatabase { db in db.trace { statements.append($0.description) } }
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            return .commit
        }
        try dbQueue.inTransaction(.exclusive) { db in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            return .rollback
        }
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t") } == [1])
        #expect(statements.contains("BEGIN IMMEDIATE TRANSACTION"))
        #expect(statements.contains("BEGIN EXCLUSIVE TRANSACTION"))
    }

    @Test func poolWriteInTransactionCommitsOrRollsBack() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        try dbPool.writeInTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (3)")
            return .commit
        }
        try dbPool.writeInTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (4)")
            return .rollback
        }
        #expect(try dbPool.read { try Int.fetchAll($0, sql: "SELECT a FROM t ORDER BY a") } == [1, 2, 3])
    }

    @Test func typeErasedReadersAndWritersForward() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let writer = AnyDatabaseWriter(dbPool)
        try writer.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
        let reader = AnyDatabaseReader(writer)
        #expect(try reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 3)
        #expect(reader.path == dbPool.path)
        let snapshot: any DatabaseSnapshotReader = try dbPool.makeSnapshot()
        #expect(try snapshot.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 3)
    }

    @Test func asyncAccessesTakeNonEscapingClosures() async throws {
        // A generic helper that forwards its non-escaping closure compiles
        // only if the async accesses take non-escaping closures, as in GRDB.
        func count(_ reader: some DatabaseReader, _ body: @Sendable (Database) throws -> Int) async throws -> Int {
            try await reader.read(body)
        }
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        #expect(try await count(dbPool) { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! } == 2)
        #expect(try await count(AnyDatabaseReader(dbPool)) { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! } == 2)
    }

    @Test func interruptStopsARunningStatement() throws {
        let dbQueue = try DatabaseQueue()
        let started = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            started.wait()
            Thread.sleep(forTimeInterval: 0.2)
            dbQueue.interrupt()
        }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in
                started.signal()
                // Runs for a long time unless interrupted.
                _ = try Int.fetchOne(db, sql: """
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
                    SELECT COUNT(*) FROM c
                    """)
            }
        }
        #expect(error?.resultCode == .SQLITE_INTERRUPT)
        #expect(error?.isInterruptionError == true)
        // The queue keeps working.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
    }

    @Test func eraseDropsEverythingAndKeepsTheKey() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("secret"))
        try dbQueue.write { db in
            try db.execute(sql: """
                PRAGMA foreign_keys = ON;
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (parentId REFERENCES parent(id));
                CREATE INDEX child_parent ON child(parentId);
                CREATE VIEW v AS SELECT * FROM parent;
                CREATE TRIGGER tr AFTER INSERT ON parent BEGIN SELECT 1; END;
                INSERT INTO parent VALUES (1); INSERT INTO child VALUES (1);
                """)
        }
        try dbQueue.erase()
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") } == 0)
        #expect(try dbQueue.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)
        try dbQueue.close()
        #expect(try DatabaseQueue(path: path, configuration: keyed("secret")).read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master")
        } == 0)
        #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path) }
    }

    @Test func vacuumIntoWritesACopyKeyedLikeTheSource() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        try dbPool.vacuum()
        let copy = dir.path("copy.sqlite")
        try dbPool.vacuum(into: copy)
        #expect(try DatabaseFile.isEncrypted(atPath: copy))
        #expect(try DatabaseQueue(path: copy, configuration: keyed("secret")).read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")
        } == 2)
    }

    @Test func copiesOfAnEncryptedFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makePool(dir).close()
        let memory = try DatabaseQueue.inMemoryCopy(fromPath: path, configuration: keyed("secret"))
        try memory.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try memory.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 3)
        var readonly = keyed("secret")
        readonly.readonly = true
        let temporary = try DatabaseQueue.temporaryCopy(fromPath: path, configuration: readonly)
        #expect(try temporary.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
        #expect(throws: DatabaseError.self) { try temporary.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") } }
        // The source is unchanged.
        #expect(try DatabaseQueue(path: path, configuration: keyed("secret")).read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")
        } == 2)
    }

    @Test func releaseMemoryEventuallyKeepsThePoolUsable() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        dbPool.releaseMemoryEventually()
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
    }
}
