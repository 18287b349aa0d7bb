import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

/// The in-place operations (replace, upgrade, re-encrypt, an export that
/// replaces its destination) on a path that is a symbolic link, or a file
/// with several hard links: the real file changes and the link stays, or
/// nothing changes.
@Suite struct FileLinkTests {
    /// The path of `data/db.sqlite`, and of `link.sqlite`, a relative symbolic link to it.
    private func linkedPaths(in dir: TemporaryDirectory) throws -> (real: String, link: String) {
        try FileManager.default.createDirectory(atPath: dir.path("data"), withIntermediateDirectories: false)
        let link = dir.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "data/db.sqlite")
        return (dir.path("data/db.sqlite"), link)
    }

    private func expectLinkIntact(_ link: String, in dir: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "data/db.sqlite",
                "the link must still point to the database", sourceLocation: sourceLocation)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("data")) == ["db.sqlite"],
                "no temporary or side file is left beside the database", sourceLocation: sourceLocation)
    }

    private func secretCount(_ path: String, _ configuration: Configuration) throws -> Int? {
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? dbQueue.close() }
        return try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM secret") }
    }

    /// A copy of the database at `path`, under the passphrase "new" (SQLCipher's
    /// default settings), at `copy`.
    private func exportCopy(of path: String, configuration: Configuration, to copy: String) throws {
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.export(to: copy, encryption: .encrypted(key: .passphrase("new")))
        try dbQueue.close()
    }

    @Test func replaceThroughASymbolicLinkReplacesTheRealFile() throws {
        let dir = try TemporaryDirectory()
        let (real, link) = try linkedPaths(in: dir)
        try makeEncryptedDatabaseWithDefaultSettings(at: real, passphrase: "old")
        try exportCopy(of: real, configuration: keyedWithDefaultSettings("old"), to: dir.path("new.sqlite"))

        try DatabaseFile.replace(atPath: link, with: dir.path("new.sqlite"))
        try expectLinkIntact(link, in: dir)
        #expect(try secretCount(real, keyedWithDefaultSettings("new")) == 1)
        #expect(throws: DatabaseError.self) { try secretCount(real, keyedWithDefaultSettings("old")) }
    }

    @Test func replaceRefusesAHardLinkedFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "old")
        try FileManager.default.linkItem(atPath: path, toPath: dir.path("other.sqlite"))
        try exportCopy(of: path, configuration: keyed("old"), to: dir.path("new.sqlite"))
        let before = try fileBytes(path)

        let error = #expect(throws: DatabaseError.self) { try DatabaseFile.replace(atPath: path, with: dir.path("new.sqlite")) }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
        #expect(error?.message?.contains("2 hard links") == true, "\(String(describing: error))")
        #expect(error?.message?.contains("export it to a new file") == true, "\(String(describing: error))")
        #expect(try fileBytes(path) == before)
        #expect(try fileBytes(dir.path("other.sqlite")) == before)
        #expect(FileManager.default.fileExists(atPath: dir.path("new.sqlite")))
    }

    @Test func replaceRefusesASymbolicLinkToNothing() throws {
        let dir = try TemporaryDirectory()
        let (real, link) = try linkedPaths(in: dir)
        try makeEncryptedDatabase(at: dir.path("source.sqlite"), passphrase: "old")
        try exportCopy(of: dir.path("source.sqlite"), configuration: keyed("old"), to: dir.path("new.sqlite"))

        let error = #expect(throws: DatabaseError.self) { try DatabaseFile.replace(atPath: link, with: dir.path("new.sqlite")) }
        #expect(error?.message?.contains("symbolic link to a missing file") == true, "\(String(describing: error))")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "data/db.sqlite")
        #expect(!FileManager.default.fileExists(atPath: real))
    }

    @Test func anUpgradeThroughASymbolicLinkUpgradesTheRealFile() throws {
        let dir = try TemporaryDirectory()
        let (real, link) = try linkedPaths(in: dir)
        try SQLCipherShell.run(real, key: nil, script: """
            PRAGMA key = 'legacy';
            PRAGMA cipher_compatibility = 3;
            CREATE TABLE secret (value TEXT);
            INSERT INTO secret VALUES ('written by SQLCipher 3');
            """)

        #expect(try DatabaseFile.upgradeToSQLCipher4(atPath: link, key: .passphrase("legacy")) == .upgraded(fromCompatibility: 3))
        try expectLinkIntact(link, in: dir)
        #expect(try secretCount(real, keyedWithDefaultSettings("legacy")) == 1)
    }

    @Test func anUpgradeOfAHardLinkedFileIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var v3 = keyed("legacy")
        v3.cipherSettings = .sqlcipher3
        let legacy = try DatabaseQueue(path: path, configuration: v3)
        try legacy.write { db in
            try db.execute(sql: "CREATE TABLE secret (value TEXT); INSERT INTO secret VALUES ('x')")
        }
        try legacy.close()
        try FileManager.default.linkItem(atPath: path, toPath: dir.path("other.sqlite"))
        let before = try fileBytes(path)

        let error = #expect(throws: DatabaseError.self) {
            try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("legacy"))
        }
        #expect(error?.message?.contains("hard links") == true, "\(String(describing: error))")
        #expect(try fileBytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["db.sqlite", "other.sqlite"])
    }

    @Test func reencryptThroughASymbolicLinkKeepsTheRealFileInWALMode() throws {
        let dir = try TemporaryDirectory()
        let (real, link) = try linkedPaths(in: dir)
        let dbPool = try DatabasePool(path: real, configuration: keyedWithDefaultSettings("old"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE secret (value TEXT); INSERT INTO secret VALUES ('a'), ('b')")
        }
        try dbPool.close()

        let settings = CipherSettings(kdfIterations: 10_000)
        try DatabaseFile.reencrypt(atPath: link, key: .passphrase("old"), newKey: .passphrase("new"), newSettings: settings)
        try expectLinkIntact(link, in: dir)
        var config = keyedWithDefaultSettings("new")
        config.cipherSettings = settings
        #expect(try secretCount(real, config) == 2)
        let journalMode = try DatabaseQueue(path: real, configuration: config).read {
            try String.fetchOne($0, sql: "PRAGMA journal_mode")
        }
        #expect(journalMode == "wal")
        #expect(throws: DatabaseError.self) { try secretCount(real, keyedWithDefaultSettings("old")) }
    }

    @Test func reencryptRefusesAHardLinkedFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "old")
        try FileManager.default.linkItem(atPath: path, toPath: dir.path("other.sqlite"))
        let before = try fileBytes(path)

        let error = #expect(throws: DatabaseError.self) {
            try DatabaseFile.reencrypt(atPath: dir.path("other.sqlite"), key: .passphrase("old"), newKey: .passphrase("new"))
        }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
        #expect(try fileBytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["db.sqlite", "other.sqlite"])
    }

    @Test func anExportThatReplacesASymbolicLinkReplacesTheRealFile() throws {
        let dir = try TemporaryDirectory()
        let (real, link) = try linkedPaths(in: dir)
        try makeEncryptedDatabaseWithDefaultSettings(at: real, passphrase: "old", marker: "old content")
        try makeEncryptedDatabaseWithDefaultSettings(at: dir.path("source.sqlite"), passphrase: "source", marker: "new content")

        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: keyedWithDefaultSettings("source"))
        try source.export(to: link, encryption: .encrypted(key: .passphrase("new")), replacingExistingFile: true)
        try source.close()
        try expectLinkIntact(link, in: dir)
        let value = try DatabaseQueue(path: real, configuration: keyedWithDefaultSettings("new")).read {
            try String.fetchOne($0, sql: "SELECT value FROM secret")
        }
        #expect(value == "new content")
    }
}
