import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

@Suite struct KeyingTests {
    @Test func usePassphraseInPrepareDatabase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase("from prepare") }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES ('prepared-marker')") }
        try dbQueue.close()

        #expect(try !file(path, contains: "prepared-marker"))
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'from prepare';\nSELECT a FROM t;\n")
        #expect(output.contains("prepared-marker"))
    }

    @Test func dataPassphraseEqualsTheStringOfTheSameBytes() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase(Data("bytes passphrase".utf8)) }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        try dbQueue.close()

        _ = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("bytes passphrase"))
    }

    @Test func keyedConnectionsKeepTemporaryDataInMemory() throws {
        let dir = try TemporaryDirectory()
        let keyedQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        // 2 is MEMORY.
        #expect(try keyedQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == 2)
    }

    @Test func theLinkedLibraryIsARecentSQLCipher() throws {
        let version = try #require(SQLCipherLibrary.cipherVersion)
        let dbQueue = try DatabaseQueue()
        #expect(try dbQueue.read { try $0.cipherVersion } == version)
        #expect(SQLCipherLibrary.checkVersions(cipherVersion: version, sqliteVersionNumber: 3_046_001) == nil)
    }

    @Test func plainSQLiteIsRefusedWithAnExplanation() throws {
        let error = try #require(SQLCipherLibrary.checkVersions(cipherVersion: nil, sqliteVersionNumber: 3_046_001))
        #expect(error.message?.contains("not SQLCipher") == true)
        #expect(error.message?.contains("libsqlcipher-dev") == true)
    }

    @Test func oldSQLCipherIsRefusedWithItsVersion() throws {
        let error = try #require(SQLCipherLibrary.checkVersions(cipherVersion: "3.4.1", sqliteVersionNumber: 3_015_002))
        #expect(error.message?.contains("3.4.1") == true)
        #expect(error.message?.contains("too old") == true)
        #expect(SQLCipherLibrary.checkVersions(cipherVersion: "4.4.3", sqliteVersionNumber: 3_039_000) != nil)
        #expect(SQLCipherLibrary.checkVersions(cipherVersion: "4.5.0", sqliteVersionNumber: 3_039_000) == nil)
    }
}
