import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

/// The two ways of rotating keys that the README documents, run as written there.
@Suite struct KeyRotationTests {
    @Test func rotateAPoolInPlaceWithCustomSettings() async throws {
        let dir = try TemporaryDirectory()
        var config = keyed("old")
        config.cipherSettings = CipherSettings(kdfIterations: 10_000, pageSize: 8192)
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: config)
        try fill(dbPool, rows: 100)

        try await dbPool.changePassphrase("new")
        #expect(try await dbPool.read(tableCount) == 100)
        try dbPool.close()

        var newConfig = keyed("new")
        newConfig.cipherSettings = config.cipherSettings
        #expect(try await DatabasePool(path: dir.path("db.sqlite"), configuration: newConfig).read(tableCount) == 100)
        let output = try SQLCipherShell.run(
            dir.path("db.sqlite"), key: nil, script: "PRAGMA key = 'new'; PRAGMA kdf_iter = 10000; PRAGMA cipher_page_size = 8192;\nSELECT COUNT(*) FROM t;\n")
        #expect(output.contains("100"))
    }

    @Test func rotateByExportThenSwap() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var dbPool = try DatabasePool(path: path, configuration: keyed("old"))
        try fill(dbPool, rows: 100)

        // As in the README.
        var newConfig = Configuration()
        newConfig.key = .passphrase("new")
        newConfig.cipherSettings.kdfIterations = 500_000
        let rotated = path + ".rotated"
        try dbPool.export(to: rotated, encryption: .encrypted(key: newConfig.key!, settings: newConfig.cipherSettings))
        try dbPool.close()
        try DatabaseFile.replace(atPath: path, with: rotated)
        dbPool = try DatabasePool(path: path, configuration: newConfig)

        #expect(try dbPool.read(tableCount) == 100)
        #expect(try dbPool.read { try $0.cipherSettings?.kdfIterations } == 500_000)
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: dir.url.path)).isSubset(
            of: ["db.sqlite", "db.sqlite-wal", "db.sqlite-shm"]))
        #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: keyed("old")) }
    }

    @Test func aReplaceThatCannotRenameLosesNothing() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        // A live WAL: the last rows are only in db.sqlite-wal.
        let dbQueue = try DatabaseQueue(path: path, configuration: {
            var config = keyed("k")
            config.journalMode = .wal
            return config
        }())
        try fill(dbQueue, rows: 10)
        let walSize = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
        #expect(walSize > 0)

        // Another file system: a rename cannot cross it.
        let elsewhere = "/dev/shm/GRDBCipherTests-\(UUID().uuidString).sqlite"
        try makeEncryptedDatabase(at: elsewhere, passphrase: "k")
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        if FileIdentity(path: elsewhere)?.device != FileIdentity(path: dir.url.path)?.device {
            let error = #expect(throws: DatabaseError.self) { try DatabaseFile.replace(atPath: path, with: elsewhere) }
            #expect(error?.message?.contains("different file systems") == true)
            #expect(try dbQueue.read(tableCount) == 10)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }

        // A replacement still in use (it has a WAL) is refused too.
        let busy = try DatabasePool(path: dir.path("busy.sqlite"), configuration: keyed("k"))
        try fill(busy, rows: 1)
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseFile.replace(atPath: path, with: dir.path("busy.sqlite"))
        }
        #expect(error?.message?.contains("-wal") == true)
        try dbQueue.close()
        #expect(try DatabaseQueue(path: path, configuration: keyed("k")).read(tableCount) == 10)
    }
}
