import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct DatabaseQueueTests {
    @Test func readIsReadOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        // Writes work again after the read.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 1)
    }

    @Test func writeRollsBackWhenItThrows() throws {
        struct Boom: Error {}
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(throws: Boom.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
        #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false)
    }

    @Test func writeWithoutTransactionRunsOutsideOfATransaction() throws {
        let dbQueue = try DatabaseQueue()
        #expect(dbQueue.writeWithoutTransaction { $0.isInsideTransaction } == false)
        #expect(try dbQueue.write { $0.isInsideTransaction } == true)
        #expect(try dbQueue.read { $0.isInsideTransaction } == true)
        #expect(try dbQueue.barrierWriteWithoutTransaction { $0.isInsideTransaction } == false)
        #expect(dbQueue.unsafeRead { $0.isInsideTransaction } == false)
    }

    @Test func reentrantMethodsNest() throws {
        let dbQueue = try DatabaseQueue()
        let value = try dbQueue.write { _ in
            try dbQueue.unsafeReentrantWrite { db in
                try dbQueue.unsafeReentrantRead { _ in try Int.fetchOne(db, sql: "SELECT 42") }
            }
        }
        #expect(value == 42)
    }

    @Test func nestedWriteTrapsInsteadOfDeadlocking() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { _ in
                try dbQueue.write { _ in }
            }
        }
    }

    @Test func accessAfterCloseFailsClearly() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        try dbQueue.close()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
        // As in GRDB: SQLite's message when there is no connection, for the
        // first statement of the access. The hint says what happened.
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message == "out of memory")
        #expect(error?.sql == "BEGIN IMMEDIATE TRANSACTION")
        #expect(error?.hint?.contains("closed") == true)
        // A closure that runs no statement runs, as in GRDB.
        #expect(dbQueue.inDatabase { _ in 1 } == 1)
        // A read, where GRDB crashes, throws.
        let readError = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
        #expect(readError?.resultCode == .SQLITE_MISUSE)
        #expect(readError?.hint?.contains("closed") == true)
        // Closing twice is harmless.
        try dbQueue.close()
    }

    @Test func readonlyConfigurationForbidsWrites() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "secret")
        var config = keyed("secret")
        config.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM secret") } == 1)
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM secret") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    @Test func namedInMemoryDatabasesAreShared() throws {
        let name = "shared-\(UUID().uuidString)"
        let first = try DatabaseQueue(named: name)
        let second = try DatabaseQueue(named: name)
        try first.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        #expect(try second.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        let other = try DatabaseQueue()
        #expect(throws: DatabaseError.self) {
            try other.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") }
        }
    }

    @Test func walJournalMode() throws {
        let dir = try TemporaryDirectory()
        var config = keyed("secret")
        config.journalMode = .wal
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func busyTimeoutWaitsForALock() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "secret")
        var config = keyed("secret")
        config.busyMode = .timeout(10)
        let holder = try DatabaseQueue(path: path, configuration: keyed("secret"))
        let waiter = try DatabaseQueue(path: path, configuration: config)
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? holder.writeWithoutTransaction { db in
                try db.beginTransaction(.exclusive)
                locked.signal()
                release.wait()
                try db.commit()
            }
        }
        thread.start()
        locked.wait()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { release.signal() }
        // Without the timeout this would fail at once with SQLITE_BUSY.
        try waiter.write { db in try db.execute(sql: "INSERT INTO secret (value) VALUES ('waited')") }
        #expect(try waiter.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM secret") } == 2)
    }

    @Test func callbacksRunOnTheQueue() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let written: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncWrite({ db in
                try db.execute(sql: "INSERT INTO t VALUES (1), (2)")
                return db.changesCount
            }, completion: { _, result in continuation.resume(with: result) })
        }
        #expect(written == 2)
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncRead { result in
                continuation.resume(with: result.flatMap { db in
                    Result { try Int.fetchOne(db, sql: "SELECT count(*) FROM t")! }
                })
            }
        }
        #expect(count == 2)
        await withCheckedContinuation { continuation in
            dbQueue.asyncWriteWithoutTransaction { db in
                try? db.execute(sql: "DELETE FROM t")
                continuation.resume()
            }
        }
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test func eightConcurrentTasksReadAndWrite() async throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            try db.execute(sql: "CREATE TABLE event (task INTEGER NOT NULL)")
            try db.execute(sql: "INSERT INTO counter VALUES (1, 0)")
        }
        let writesPerTask = 50
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for _ in 0..<writesPerTask {
                        try await dbQueue.write { db in
                            try db.execute(sql: "UPDATE counter SET value = value + 1")
                            try db.execute(sql: "INSERT INTO event (task) VALUES (?)", arguments: [task])
                        }
                        // Each read sees the two tables agree.
                        let (counter, events) = try await dbQueue.read { db in
                            (try Int.fetchOne(db, sql: "SELECT value FROM counter")!,
                             try Int.fetchOne(db, sql: "SELECT count(*) FROM event")!)
                        }
                        #expect(counter == events)
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT value FROM counter") }
        #expect(final == 8 * writesPerTask)
        let perTask = try await dbQueue.read { db in
            try Int.fetchAll(db, sql: "SELECT count(*) FROM event GROUP BY task ORDER BY task")
        }
        #expect(perTask == Array(repeating: writesPerTask, count: 8))
    }
}
