import Dispatch
import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

@Suite struct PoolEncryptionTests {
    @Test func readersUseTheDerivedKeyAndReadTheSameData() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 20)
        let rows = try dbPool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY id") }
        #expect(try dbPool.unsafeRead { db in db.cipherState.derivedKeyAttempt != nil })

        // A connection keyed with the passphrase reads the same rows.
        let dbQueue = try DatabaseQueue(path: dir.path("pool.sqlite"), configuration: keyed("pool secret"))
        let queueRows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY id") }
        #expect(dbQueue.unsafeRead { db in db.cipherState.derivedKeyAttempt == nil })
        #expect(rows == queueRows)
        #expect(rows.count == 20)
    }

    @Test func withoutDerivedKeysEveryConnectionUsesThePassphrase() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1) { $0.reusesDerivedKeys = false }
        #expect(try dbPool.unsafeRead { db in db.cipherState.derivedKeyAttempt == nil })
        #expect(try dbPool.read(rowCount) == 1)
    }

    @Test func aPoolOpensWhatTheShellCreated() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("shell.sqlite")
        try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = 'shell secret';
            CREATE TABLE t (value TEXT);
            INSERT INTO t VALUES ('from the shell');
            """)
        let dbPool = try DatabasePool(path: path, configuration: keyedWithDefaultSettings("shell secret"))
        #expect(try dbPool.read { try String.fetchOne($0, sql: "SELECT value FROM t") } == "from the shell")
        #expect(try dbPool.unsafeRead { db in db.cipherState.derivedKeyAttempt != nil })
    }

    @Test func nonDefaultCipherSettingsFallBackToThePassphrase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("legacy.sqlite")
        try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = 'legacy';
            PRAGMA kdf_iter = 64000;
            CREATE TABLE t (value TEXT);
            INSERT INTO t VALUES ('fewer iterations');
            """)
        var config = Configuration()
        config.prepareDatabase { db in
            try db.usePassphrase("legacy")
            try db.execute(sql: "PRAGMA kdf_iter = 64000")
        }
        let dbPool = try DatabasePool(path: path, configuration: config)
        #expect(try dbPool.read { try String.fetchOne($0, sql: "SELECT value FROM t") } == "fewer iterations")
        // The derived key did not open the file: readers fell back, for good.
        #expect(try dbPool.unsafeRead { db in db.cipherState.derivedKeyAttempt == nil })
        dbPool.invalidateReadOnlyConnections()
        #expect(try dbPool.unsafeRead { db in db.cipherState.derivedKeyAttempt == nil })
    }

    @Test func theWALFileHoldsNoPlaintext() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO t (value) VALUES ('WAL-MARKER-91c2')")
        }
        let walPath = dir.path("pool.sqlite") + "-wal"
        let walSize = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int ?? 0
        #expect(walSize > 0)
        #expect(try !file(walPath, contains: "WAL-MARKER-91c2"))
        #expect(try !file(dir.path("pool.sqlite"), contains: "SQLite format 3"))
    }

    @Test func changePassphraseWhileReadersAreAlive() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("pool.sqlite")
        let dbPool = try makePool(dir, rows: 10) {
            $0.maximumReaderCount = 3
            $0.cipherSettings = CipherSettings()   // the shell opens it below
        }
        let stop = LockedValue(false)
        let failures = LockedValue<[String]>([])
        let readCount = LockedValue(0)
        // Readers keep reading before, during and after the change.
        let readers = (0..<3).map { _ in
            Task {
                while !stop.withLock({ $0 }) {
                    do {
                        let count = try await dbPool.read(rowCount)
                        if count != 10 { failures.withLock { $0.append("count \(count)") } }
                        readCount.withLock { $0 += 1 }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        while readCount.withLock({ $0 }) < 30 { try await Task.sleep(nanoseconds: 1_000_000) }
        try await dbPool.changePassphrase("pool secret 2")
        let afterChange = readCount.withLock { $0 }
        while readCount.withLock({ $0 }) < afterChange + 30 { try await Task.sleep(nanoseconds: 1_000_000) }
        stop.withLock { $0 = true }
        for reader in readers { await reader.value }

        #expect(failures.withLock { $0 } == [])
        // Readers opened after the change use the new key.
        dbPool.invalidateReadOnlyConnections()
        #expect(try await dbPool.read(rowCount) == 10)
        try dbPool.close()

        let error = #expect(throws: DatabaseError.self) {
            _ = try DatabasePool(path: path, configuration: keyedWithDefaultSettings("pool secret"))
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        let reopened = try DatabasePool(path: path, configuration: keyedWithDefaultSettings("pool secret 2"))
        #expect(try await reopened.read(rowCount) == 10)
        try reopened.close()
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'pool secret 2';\nSELECT count(*) FROM t;\n")
        #expect(output.contains("10"))
    }

    @Test func prepareDatabasePassphrasesFollowAChange() throws {
        let dir = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase("static passphrase") }
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: config)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        try dbPool.changePassphrase("rotated passphrase")
        // New readers still run the closure with the old passphrase; the pool
        // keys them with the new one.
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
        try dbPool.close()
        _ = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyedWithDefaultSettings("rotated passphrase"))
    }

    @Test func concurrentPassphraseChangesAreSerialized() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("pool.sqlite")
        let dbPool = try makePool(dir, rows: 5)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask { try await dbPool.changePassphrase("passphrase \(index)") }
                group.addTask { _ = try await dbPool.read(rowCount) }
            }
            try await group.waitForAll()
        }
        #expect(try await dbPool.read(rowCount) == 5)
        try dbPool.close()
        // Exactly one of the new passphrases opens the file.
        var opened = 0
        for index in 0..<4 {
            if (try? DatabaseQueue(path: path, configuration: keyed("passphrase \(index)"))) != nil { opened += 1 }
        }
        #expect(opened == 1)
    }

    @Test func aFailedChangeKeepsTheOldPassphrase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("pool.sqlite")
        let dbPool = try makePool(dir, rows: 3)
        #expect(throws: DatabaseError.self) { try dbPool.changePassphrase("") }
        #expect(try dbPool.read(rowCount) == 3)
        try dbPool.close()
        _ = try DatabasePool(path: path, configuration: keyed("pool secret"))
    }
}

@Suite struct NewPoolKeyTests {
    @Test func aNewPoolDerivesTheKeyOnceForEveryConnection() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("new.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyedWithDefaultSettings("new pool"))
        // The writer of a new file is keyed with a derived raw key too.
        #expect(try dbPool.writeWithoutTransaction { $0.cipherState.derivedKeyAttempt != nil })
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES ('new-file-marker')") }
        #expect(try dbPool.unsafeRead { $0.cipherState.derivedKeyAttempt != nil })
        #expect(try dbPool.read { try String.fetchOne($0, sql: "SELECT a FROM t") } == "new-file-marker")
        try dbPool.close()
        // The file opens with the passphrase, elsewhere.
        #expect(try !file(path, contains: "new-file-marker"))
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'new pool';\nSELECT a FROM t;\n")
        #expect(output.contains("new-file-marker"))
    }
}
