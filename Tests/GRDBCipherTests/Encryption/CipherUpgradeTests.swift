import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

@Suite struct CipherUpgradeTests {
    /// A file written the way SQLCipher 3 wrote them, by the shell.
    func makeSQLCipher3File(_ path: String, passphrase: String = "three") throws {
        try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = '\(passphrase)';
            PRAGMA cipher_compatibility = 3;
            CREATE TABLE t (value TEXT);
            INSERT INTO t VALUES ('written by SQLCipher 3');
            PRAGMA user_version = 3;
            """)
    }

    @Test func anSQLCipher3FileOpensWithCompatibility3AndUpgradesInPlace() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("v3.sqlite")
        try makeSQLCipher3File(path)

        // Not with SQLCipher 4 defaults...
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("three")) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        // ...but with compatibility 3, in a queue and in a pool.
        var legacy = keyedWithDefaultSettings("three")
        legacy.cipherSettings = .sqlcipher3
        let v3Queue = try DatabaseQueue(path: path, configuration: legacy)
        #expect(try v3Queue.read { try String.fetchOne($0, sql: "SELECT value FROM t") } == "written by SQLCipher 3")
        try v3Queue.close()

        let outcome = try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("three"))
        #expect(outcome == .upgraded(fromCompatibility: 3))

        let upgraded = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("three"))
        #expect(try upgraded.read { try String.fetchOne($0, sql: "SELECT value FROM t") } == "written by SQLCipher 3")
        #expect(try upgraded.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 3)
        #expect(try upgraded.read { try $0.cipherSettings?.pageSize } == 4096)
        try upgraded.close()
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'three';\nSELECT value FROM t;\n")
        #expect(output.contains("written by SQLCipher 3"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["v3.sqlite"])
    }

    @Test func theAsyncTwinsUpgradeAndCheck() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("v3.sqlite")
        try makeSQLCipher3File(path)
        #expect(try await DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("three")) == .upgraded(fromCompatibility: 3))
        let dbPool = try DatabasePool(path: path, configuration: keyedWithDefaultSettings("three"))
        #expect(try await dbPool.cipherIntegrityCheck() == [])
    }

    @Test func aCurrentFileIsLeftAlone() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("v4.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "four")
        let before = try fileBytes(path)
        #expect(try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("four")) == .alreadyCurrent)
        #expect(try fileBytes(path) == before)
    }

    @Test func aFailedUpgradeLeavesTheOriginalReadable() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("v3.sqlite")
        try makeSQLCipher3File(path)
        let before = try fileBytes(path)

        let error = #expect(throws: DatabaseError.self) {
            try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("wrong"))
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        #expect(error?.hint?.contains("wrong") == true)
        #expect(try fileBytes(path) == before)
        var legacy = keyed("three")
        legacy.cipherSettings = .sqlcipher3
        #expect(try DatabaseQueue(path: path, configuration: legacy).read {
            try String.fetchOne($0, sql: "SELECT value FROM t")
        } == "written by SQLCipher 3")
    }

    @Test func aPlaintextFileIsNotUpgraded() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("plain.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t (value TEXT)") }
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("x"))
        }
        #expect(error?.message?.contains("export") == true)
    }

    @Test func whetherAFileIsEncryptedIsToldFromItsHeader() throws {
        let dir = try TemporaryDirectory()
        try makeEncryptedDatabase(at: dir.path("enc.sqlite"), passphrase: "k")
        try DatabaseQueue(path: dir.path("plain.sqlite")).write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        _ = FileManager.default.createFile(atPath: dir.path("empty.sqlite"), contents: Data())
        #expect(try DatabaseFile.isEncrypted(atPath: dir.path("enc.sqlite")))
        #expect(try !DatabaseFile.isEncrypted(atPath: dir.path("plain.sqlite")))
        #expect(try !DatabaseFile.isEncrypted(atPath: dir.path("empty.sqlite")))
        let error = #expect(throws: DatabaseError.self) { try DatabaseFile.isEncrypted(atPath: dir.path("missing.sqlite")) }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
    }
}
