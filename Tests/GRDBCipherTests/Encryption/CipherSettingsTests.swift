import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

/// A setting, and the shell pragmas that mean the same thing.
struct SettingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let settings: CipherSettings
    let pragmas: String
    var testDescription: String { name }
}

let settingCases: [SettingCase] = [
    SettingCase(name: "compatibility 3", settings: .sqlcipher3, pragmas: "PRAGMA cipher_compatibility = 3;"),
    SettingCase(name: "compatibility 2", settings: CipherSettings(compatibility: 2), pragmas: "PRAGMA cipher_compatibility = 2;"),
    SettingCase(name: "kdf iterations", settings: CipherSettings(kdfIterations: 12_345), pragmas: "PRAGMA kdf_iter = 12345;"),
    SettingCase(
        name: "kdf algorithm", settings: CipherSettings(kdfAlgorithm: .pbkdf2HMACSHA256),
        pragmas: "PRAGMA cipher_kdf_algorithm = PBKDF2_HMAC_SHA256;"),
    SettingCase(
        name: "hmac algorithm", settings: CipherSettings(hmacAlgorithm: .hmacSHA1),
        pragmas: "PRAGMA cipher_hmac_algorithm = HMAC_SHA1;"),
    SettingCase(name: "page size", settings: CipherSettings(pageSize: 8192), pragmas: "PRAGMA cipher_page_size = 8192;"),
    SettingCase(name: "no hmac", settings: CipherSettings(usesHMAC: false), pragmas: "PRAGMA cipher_use_hmac = OFF;"),
    SettingCase(
        name: "everything at once",
        settings: CipherSettings(
            compatibility: 3, kdfIterations: 5000, kdfAlgorithm: .pbkdf2HMACSHA512, hmacAlgorithm: .hmacSHA256,
            pageSize: 2048),
        pragmas: """
            PRAGMA cipher_compatibility = 3; PRAGMA cipher_page_size = 2048; PRAGMA kdf_iter = 5000;
            PRAGMA cipher_kdf_algorithm = PBKDF2_HMAC_SHA512; PRAGMA cipher_hmac_algorithm = HMAC_SHA256;
            """),
]

@Suite struct CipherSettingsTests {
    func configuration(_ settings: CipherSettings, passphrase: String = "settings secret") -> Configuration {
        var config = keyed(passphrase)
        config.cipherSettings = settings
        return config
    }

    @Test(arguments: settingCases)
    func theShellReadsWhatGRDBCipherWroteWithTheSetting(_ setting: SettingCase) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(setting.settings))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT); INSERT INTO t VALUES ('from grdbcipher')")
        }
        try dbQueue.close()

        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'settings secret';\n\(setting.pragmas)\nSELECT value FROM t;\n")
        #expect(output.contains("from grdbcipher"))
        // Without the setting, the shell cannot read the file.
        #expect(throws: EncryptionCheck.Failure.self) {
            try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'settings secret';\nSELECT value FROM t;\n")
        }
    }

    @Test(arguments: settingCases)
    func grdbcipherReadsWhatTheShellWroteWithTheSetting(_ setting: SettingCase) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("shell.sqlite")
        try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = 'settings secret';
            \(setting.pragmas)
            CREATE TABLE t (value TEXT);
            INSERT INTO t VALUES ('from the shell');
            """)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(setting.settings))
        #expect(try dbQueue.read { try String.fetchOne($0, sql: "SELECT value FROM t") } == "from the shell")

        // A pool derives the key with the settings' KDF, once, and its readers use it.
        let dbPool = try DatabasePool(path: path, configuration: configuration(setting.settings))
        #expect(try dbPool.read { try String.fetchOne($0, sql: "SELECT value FROM t") } == "from the shell")
        #expect(try dbPool.unsafeRead { db in db.cipherState.derivedKeyAttempt != nil })
    }

    @Test func mismatchedSettingsFailLikeAWrongPassphraseAndLeaveTheFileUntouched() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try DatabaseQueue(path: path, configuration: configuration(CipherSettings(pageSize: 8192))).write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT)")
        }
        let before = try fileBytes(path)
        for settings in [CipherSettings(), .sqlcipher3, CipherSettings(kdfIterations: 1000)] {
            let error = #expect(throws: DatabaseError.self) {
                try DatabaseQueue(path: path, configuration: configuration(settings))
            }
            #expect(error?.resultCode == .SQLITE_NOTADB)
            #expect(error?.hint?.contains("cipher settings") == true)
        }
        #expect(try fileBytes(path) == before)
    }

    @Test func settingsSetWithPragmasInPrepareDatabaseMustMatchTheFile() throws {
        // GRDB's way: the key, then the cipher pragmas, in prepareDatabase.
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try DatabaseQueue(path: path, configuration: pragmaKeyedConfiguration(kdfIterations: 4000)).write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT)")
        }
        let before = try fileBytes(path)
        let queueError = #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: path, configuration: pragmaKeyedConfiguration(kdfIterations: 5000))
        }
        #expect(queueError?.resultCode == .SQLITE_NOTADB)
        let poolError = #expect(throws: DatabaseError.self) {
            let dbPool = try DatabasePool(path: path, configuration: pragmaKeyedConfiguration(kdfIterations: 5000))
            try dbPool.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        }
        #expect(poolError?.resultCode == .SQLITE_NOTADB)
        #expect(try fileBytes(path) == before)
        let dbPool = try DatabasePool(path: path, configuration: pragmaKeyedConfiguration(kdfIterations: 4000))
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func aPoolCreatesItsFileWithThePragmasOfPrepareDatabase() throws {
        // GRDB's way, and a pool creates the file: its key must be derived
        // with the iterations the pragma sets, not with the configuration's.
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        do {
            let dbPool = try DatabasePool(path: path, configuration: pragmaKeyedConfiguration(kdfIterations: 12_000))
            try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (value INTEGER); INSERT INTO t VALUES (1)") }
            #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT value FROM t") } == 1)
            try dbPool.close()
        }
        let error = #expect(throws: DatabaseError.self) {
            let dbPool = try DatabasePool(path: path, configuration: pragmaKeyedConfiguration(kdfIterations: 6_000))
            try dbPool.read { db in _ = try Int.fetchOne(db, sql: "SELECT value FROM t") }
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        #expect(error?.message == "file is not a database")
        // An independent reader: the shell, with the pragma's iterations.
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'pragma secret'; PRAGMA kdf_iter = 12000;\nSELECT value FROM t;\n")
        #expect(output.split(separator: "\n").last == "1", "\(output)")
    }

    @Test(arguments: [
        CipherSettings(compatibility: 5),
        CipherSettings(kdfIterations: 0),
        CipherSettings(pageSize: 1000),
        CipherSettings(pageSize: 256),
        CipherSettings(plaintextHeaderSize: 20),
        CipherSettings(pageSize: 1024, plaintextHeaderSize: 1024),
    ])
    func invalidSettingsAreRefusedBeforeTheFileIsTouched(_ settings: CipherSettings) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: path, configuration: configuration(settings))
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(size == 0)
    }

    @Test func settingsApplyAfterAPassphraseGivenInPrepareDatabase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var config = Configuration()
        config.cipherSettings = CipherSettings(kdfIterations: 4321, pageSize: 2048)
        config.prepareDatabase { db in try db.usePassphrase("prepared") }
        try DatabaseQueue(path: path, configuration: config).write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT); INSERT INTO t VALUES ('prepared')")
        }
        let output = try SQLCipherShell.run(
            path, key: nil, script: "PRAGMA key = 'prepared'; PRAGMA kdf_iter = 4321; PRAGMA cipher_page_size = 2048;\nSELECT value FROM t;\n")
        #expect(output.contains("prepared"))
    }

    @Test func theSettingsInEffectAreReported() throws {
        let dbQueue = try DatabaseQueue(configuration: configuration(.sqlcipher3))
        let settings = try dbQueue.read { db in try db.cipherSettings }
        #expect(settings?.pageSize == 1024)
        #expect(settings?.kdfIterations == 64_000)
        #expect(settings?.kdfAlgorithm == .pbkdf2HMACSHA1)
        #expect(settings?.hmacAlgorithm == .hmacSHA1)
        #expect(settings?.usesHMAC == true)
        #expect(settings?.plaintextHeaderSize == 0)

        let defaults = try DatabaseQueue(configuration: keyedWithDefaultSettings("x")).read { db in try db.cipherSettings }
        #expect(defaults?.pageSize == 4096)
        #expect(defaults?.kdfIterations == 256_000)
        #expect(defaults?.kdfAlgorithm == .pbkdf2HMACSHA512)

        #expect(try DatabaseQueue().read { db in try db.cipherSettings } == nil)
    }

    @Test func memorySecurityIsOnlyEverTurnedOn() throws {
        // It is process-wide and cannot be turned off: checked on the pragmas
        // rather than on this process, which the other tests share.
        #expect(try CipherSettings(memorySecurity: true).pragmas() == ["PRAGMA cipher_memory_security = ON"])
        #expect(try CipherSettings(memorySecurity: false).pragmas() == [])
        #expect(try CipherSettings(pageSize: 2048).pragmas(schema: "other") == ["PRAGMA other.cipher_page_size = 2048"])
    }

    @Test func theLibraryReportsItsVersions() throws {
        #expect(SQLCipherLibrary.cipherVersion?.hasPrefix("4.") == true)
        #expect(SQLCipherLibrary.sqliteVersion.hasPrefix("3."))
        let version = try DatabaseQueue().read { db in try db.cipherVersion }
        #expect(version == SQLCipherLibrary.cipherVersion)
    }
}

/// GRDB's way of keying: the key, then the cipher pragmas, in prepareDatabase.
private func pragmaKeyedConfiguration(kdfIterations: Int) -> Configuration {
    var config = Configuration()
    config.prepareDatabase { db in
        try db.usePassphrase("pragma secret")
        try db.execute(sql: "PRAGMA kdf_iter = \(kdfIterations)")
    }
    return config
}
