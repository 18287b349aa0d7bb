import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

/// A pool's `cipherIntegrityCheck()` reads the whole file: it must not hold
/// the writer meanwhile.
@Suite struct PoolCipherIntegrityTests {
    /// The check is held in progress (its `PRAGMA cipher_integrity_check`
    /// waits in a trace callback of its connection) while the test writes:
    /// the write completes, then the check is let go and finds the file intact.
    @Test func aWriteCompletesWhileThePoolChecksTheFile() async throws {
        let dir = try TemporaryDirectory()
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        var config = keyed("k")
        config.prepareDatabase { db in
            db.trace { event in
                guard event.description.contains("cipher_integrity_check") else { return }
                enteredContinuation.yield()
                release.wait()
            }
        }
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: config)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (0)") }

        let check = Task { try await dbPool.cipherIntegrityCheck() }
        for await _ in entered { break }
        let (written, writtenContinuation) = AsyncStream<Void>.makeStream()
        let write = Task {
            try await dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            writtenContinuation.yield()
        }
        // A check that held the writer would keep this write waiting: the
        // deadline turns that hang into a failure, and lets the check go.
        let wrote = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in written { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(wrote, "the write waited for the integrity check")
        release.signal()
        #expect(try await check.value == [])
        try await write.value
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 2)
    }

    /// Pages that fail on the reader are checked again on the writer, which
    /// can move the WAL into the file first: a fresh rotation is no damage.
    @Test func aRotationWhoseWALIsNotInTheFileYetIsNoDamage() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("old"))
        try await dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            for index in 0..<200 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [index]) }
        }
        let snapshot = try dbPool.makeSnapshot()
        try await dbPool.changePassphrase("new")
        // The snapshot keeps old frames in the WAL: the file is under the old key.
        let error = await #expect(throws: DatabaseError.self) { try await dbPool.cipherIntegrityCheck() }
        #expect(error?.resultCode == .SQLITE_BUSY)
        try snapshot.close()
        try await dbPool.writeWithoutTransaction { _ in }
        #expect(try await dbPool.cipherIntegrityCheck() == [])
    }

    /// A pool behind `AnyDatabaseReader` or `AnyDatabaseWriter` is checked
    /// as the pool itself is: a reader that meets the pages of a fresh
    /// rotation turns to the writer, which moves the WAL into the file.
    @Test(arguments: ["reader", "writer"])
    func aWrappedPoolIsCheckedAsThePool(wrapper: String) async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("old"))
        try await dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            for index in 0..<200 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [index]) }
        }
        let wrapped: any DatabaseReader = wrapper == "reader" ? AnyDatabaseReader(dbPool) : AnyDatabaseWriter(dbPool)
        try await dbPool.changePassphrase("new")
        let synchronousFailures = try { () throws -> [Database.CipherIntegrityFailure] in try wrapped.cipherIntegrityCheck() }()
        #expect(synchronousFailures == [])
        try await dbPool.changePassphrase("newer")
        #expect(try await wrapped.cipherIntegrityCheck() == [])
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 200)
    }
}
