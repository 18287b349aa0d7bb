import CSQLCipher
import Foundation
@_spi(InsecureKeyDerivation) @testable import GRDBCipher
import GRDBCipherTesting
import Testing

/// Settings without an HMAC (SQLCipher 1's defaults) cannot tell a wrong key
/// before SQLite reads the header it decrypted: one wrong key in 256 makes
/// it say "WAL", and a read-only connection of SQLite alone then leaves an
/// empty `-wal` and a `-shm` beside the file. GRDBCipher's read-only
/// connections try such keys on a copy first, and leave nothing.
@Suite struct UnauthenticatedWrongKeyTests {
    /// Whether a read-only connection of SQLite itself, keyed with `passphrase`
    /// and SQLCipher 1's defaults with one KDF round (the settings of the file
    /// below), leaves a `-wal` or `-shm` (removed again here).
    static func plainSQLiteLeavesWALFiles(_ path: String, passphrase: String) -> Bool {
        var handle: OpaquePointer?
        sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil)
        _ = sqlite3_key(handle, passphrase, CInt(passphrase.utf8.count))
        sqlite3_exec(handle, "PRAGMA cipher_compatibility = 1; PRAGMA kdf_iter = 1; SELECT count(*) FROM sqlite_master", nil, nil, nil)
        sqlite3_close_v2(handle)
        let left = ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) }
        for suffix in left { try? FileManager.default.removeItem(atPath: path + suffix) }
        return !left.isEmpty
    }

    @Test func aWrongKeyThatDecryptsToAWALHeaderLeavesNoFile() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        var settings = CipherSettings(compatibility: 1)
        settings.kdfIterations = 1
        try writeSecret(at: path, key: "right", settings: settings)
        let before = try FileSnapshot.directory(directory.path)

        // A wrong key that sends SQLite into WAL mode: one in 256 does.
        let wrong = try #require((0..<5_000).lazy.map { "wrong \($0)" }.first {
            Self.plainSQLiteLeavesWALFiles(path, passphrase: $0)
        })
        expectUnchanged(since: before)

        var configuration = Configuration()
        configuration.passphrase = wrong
        configuration.cipherSettings = settings
        configuration.readonly = true
        let error = #expect(throws: DatabaseError.self) { _ = try DatabaseQueue(path: path, configuration: configuration) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        expectUnchanged(since: before)

        // The right key still opens, read-only, through the probe.
        configuration.passphrase = "right"
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT value FROM secret") } == "MARKER-PLAINTEXT")
        try dbQueue.close()
        expectUnchanged(since: before)
    }

    @Test func theProbeIsOnlyForSettingsWithoutHMAC() {
        #expect(!UnauthenticatedKeyProbe.isNeeded(for: CipherSettings()))
        #expect(!UnauthenticatedKeyProbe.isNeeded(for: .sqlcipher3))
        #expect(!UnauthenticatedKeyProbe.isNeeded(for: CipherSettings(compatibility: 2)))
        #expect(UnauthenticatedKeyProbe.isNeeded(for: CipherSettings(compatibility: 1)))
        #expect(!UnauthenticatedKeyProbe.isNeeded(for: CipherSettings(compatibility: 1, usesHMAC: true)))
        #expect(UnauthenticatedKeyProbe.isNeeded(for: CipherSettings(usesHMAC: false)))
    }

    private func writeSecret(at path: String, key: String, settings: CipherSettings) throws {
        var configuration = Configuration()
        configuration.passphrase = key
        configuration.cipherSettings = settings
        configuration.cipherSettings.allowsInsecureKeyDerivation = true
        try makeEncryptedDatabase(at: path, passphrase: key, configuration: configuration)
    }
}
