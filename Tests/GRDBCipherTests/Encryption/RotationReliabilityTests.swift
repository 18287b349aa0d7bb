import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

/// Key rotation in process: where GRDB code calls it, what it leaves beside
/// the file, and a rotation that fails on a lock. Faults that need another
/// process (a full disk, kill -9) are in the Faults folder.
@Suite struct RotationReliabilityTests {
    private func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM t")!
    }

    private func fill(_ writer: some DatabaseWriter, rows: Int) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
            for index in 0..<rows {
                try db.execute(sql: "INSERT INTO t (payload) VALUES (?)", arguments: ["row \(index)"])
            }
        }
    }

    private func opens(_ path: String, with passphrase: String) -> Bool {
        (try? DatabaseQueue(path: path, configuration: keyed(passphrase)).read(count)) != nil
    }

    @Test func rotationInsideAQueueWriteAsGRDBCodeDoesIt() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("old"))
        try fill(dbQueue, rows: 10)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t (payload) VALUES ('in the same transaction')")
            try db.changePassphrase("new")
        }
        #expect(try dbQueue.read(count) == 11)
        try dbQueue.close()
        #expect(opens(path, with: "new"))
        #expect(!opens(path, with: "old"))
    }

    @Test func rotationInsideABarrierWriteReachesLaterPoolReaders() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyed("old"))
        try fill(dbPool, rows: 10)
        #expect(try dbPool.read(count) == 10)   // a reader keyed with the old key is idle now
        try dbPool.barrierWriteWithoutTransaction { db in try db.changePassphrase("new") }
        #expect(try dbPool.read(count) == 10)
        try dbPool.close()
        #expect(opens(path, with: "new"))
    }

    @Test func aConnectionKeyedWithPragmaKeyCanRotate() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "old")
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA key = 'old'") }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.writeWithoutTransaction { db in try db.changePassphrase("new") }
        try dbQueue.close()
        #expect(try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("new")).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM secret")
        } == "MARKER-PLAINTEXT")
    }

    @Test func aPoolRotationLeavesNoWALFramesOfTheOldKey() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyed("old"))
        try fill(dbPool, rows: 500)
        try dbPool.changePassphrase("new")
        #expect(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int == 0)
        #expect(try dbPool.read(count) == 500)
    }

    @Test func aSnapshotDelaysTheWALTruncationUntilItEnds() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyed("old"))
        try fill(dbPool, rows: 500)
        try dbPool.write { db in try db.execute(sql: "DELETE FROM t WHERE id > 400") }
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.changePassphrase("new")
        // The snapshot reads frames written with the old key: they stay.
        #expect(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0 > 0)
        #expect(try snapshot.read(count) == 400)
        // The file's pages are still under the old key: not tampering, and
        // the cipher check says it cannot tell yet rather than list them.
        let error = #expect(throws: DatabaseError.self) { try dbPool.cipherIntegrityCheck() }
        #expect(error?.resultCode == .SQLITE_BUSY)
        try snapshot.close()
        // Its end schedules the truncation on the writer; a write waits for it.
        try dbPool.writeWithoutTransaction { _ in }
        #expect(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int == 0)
        #expect(try dbPool.read(count) == 400)
        #expect(try dbPool.cipherIntegrityCheck() == [])
    }

    @Test func aRotationWithAPersistedJournalRemovesTheJournal() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("old"))
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = PERSIST") }
        try fill(dbQueue, rows: 200)
        #expect(FileManager.default.fileExists(atPath: path + "-journal"))
        try dbQueue.changePassphrase("new")
        // The journal held pages encrypted with the old key.
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        #expect(try dbQueue.read { try $0.journalMode() } == "persist")
    }

    @Test func aLockHeldByAnotherConnectionFailsTheRotationCleanly() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var config = keyed("old")
        config.busyMode = .timeout(0.1)
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try fill(dbQueue, rows: 50)
        let reader = try DatabaseQueue(path: path, configuration: keyed("old"))
        try reader.inDatabase { db in
            try db.beginTransaction(.deferred)
            _ = try count(db)   // holds a shared lock
            let error = #expect(throws: DatabaseError.self) { try dbQueue.changePassphrase("new") }
            #expect(error?.resultCode == .SQLITE_BUSY)
            try db.rollback()
        }
        // Nothing changed: the same connection keeps writing with the old key.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        try dbQueue.close()
        try reader.close()
        #expect(try DatabaseQueue(path: path, configuration: keyed("old")).read(count) == 51)
        #expect(!opens(path, with: "new"))
    }

    @Test func aFailedRotationReopensWithTheKeyThatOpensTheFile() throws {
        // A rotation that SQLCipher fails inside the caller's transaction
        // (the lock upgrade is busy): the connection is reopened with the
        // old key, and keeps its functions.
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var config = keyed("old")
        config.busyMode = .immediateError
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try fill(dbQueue, rows: 20)
        dbQueue.inDatabase { db in
            db.add(function: DatabaseFunction("answer", argumentCount: 0) { _ in 42 })
        }
        let other = try DatabaseQueue(path: path, configuration: keyed("old"))
        try other.inDatabase { otherDB in
            try otherDB.beginTransaction(.immediate)
            let error = #expect(throws: DatabaseError.self) {
                try dbQueue.inDatabase { db in
                    try db.inTransaction(.deferred) {
                        try db.changePassphrase("new")
                        return .commit
                    }
                }
            }
            #expect(error?.message?.contains("the current passphrase still opens it") == true)
            try otherDB.rollback()
        }
        try dbQueue.inDatabase { db in
            #expect(try Int.fetchOne(db, sql: "SELECT answer()") == 42)
            try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')")
        }
        try dbQueue.close()
        try other.close()
        #expect(try DatabaseQueue(path: path, configuration: keyed("old")).read(count) == 21)
    }

    @Test func rotationKeepsASecondRotationBackPossible() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyed("a"))
        try fill(dbPool, rows: 5)
        for passphrase in ["b", "c", "a", "b"] {
            try dbPool.changePassphrase(passphrase)
            #expect(try dbPool.read(count) == 5)
        }
        try dbPool.close()
        #expect(opens(path, with: "b"))
    }
}
