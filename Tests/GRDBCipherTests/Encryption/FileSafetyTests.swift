import Foundation
import Testing
@testable import GRDBCipher

/// Files on disk: permissions, replacement of open files, the SQLCipher 3
/// upgrade, and the smaller holes of the key-rotation reliability issue.
@Suite struct FileSafetyTests {
    private func permissions(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)!.intValue
    }

    private func makePlayers(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Arthur')")
        }
    }

    @Test func aPlaintextExportIsForItsOwnerOnly() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        try makePlayers(dbQueue)
        try dbQueue.export(to: dir.path("clear.sqlite"), encryption: .plaintext)
        #expect(try permissions(dir.path("clear.sqlite")) == 0o600)
        try dbQueue.export(to: dir.path("shared.sqlite"), encryption: .plaintext, filePermissions: 0o640)
        #expect(try permissions(dir.path("shared.sqlite")) == 0o640)
        #expect(throws: DatabaseError.self) {
            try dbQueue.export(to: dir.path("bad.sqlite"), encryption: .plaintext, filePermissions: 0o1777)
        }
    }

    @Test func newDatabaseFilesGetTheConfiguredPermissions() throws {
        let dir = try TemporaryDirectory()
        // Plaintext: owner only, its WAL and shared memory too.
        let plain = try DatabasePool(path: dir.path("plain.sqlite"))
        try makePlayers(plain)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try permissions(dir.path("plain.sqlite") + suffix) == 0o600)
        }
        // Encrypted: SQLite's default, unless configured.
        let processMask = umask(0o022)
        umask(processMask)
        _ = try DatabaseQueue(path: dir.path("encrypted.sqlite"), configuration: keyed("secret"))
        #expect(try permissions(dir.path("encrypted.sqlite")) == 0o644 & ~Int(processMask))
        var config = keyed("secret")
        config.filePermissions = 0o600
        _ = try DatabaseQueue(path: dir.path("private.sqlite"), configuration: config)
        #expect(try permissions(dir.path("private.sqlite")) == 0o600)
    }

    @Test func aFileOpenInThisProcessIsNotReplaced() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyedWithDefaultSettings("old"))
        try makePlayers(dbPool)
        try dbPool.export(to: path + ".new", encryption: .encrypted(key: .passphrase("new")))
        let error = #expect(throws: DatabaseError.self) { try DatabaseFile.replace(atPath: path, with: path + ".new") }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(try dbPool.read { try String.fetchOne($0, sql: "SELECT name FROM player") } == "Arthur")
        try dbPool.close()
        try DatabaseFile.replace(atPath: path, with: path + ".new")
        #expect(try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("new")).read { db in
            try String.fetchOne(db, sql: "SELECT name FROM player")
        } == "Arthur")
    }

    @Test func theUpgradeKeepsApplicationIDAndAcceptsAnyPath() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("it's a \"legacy\" file.sqlite")
        var v3 = keyedWithDefaultSettings("legacy")
        v3.cipherSettings = .sqlcipher3
        let old = try DatabaseQueue(path: path, configuration: v3)
        try makePlayers(old)
        try old.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA user_version = 7; PRAGMA application_id = 1234")
        }
        // Refused while open here.
        #expect(throws: DatabaseError.self) { try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("legacy")) }
        try old.close()

        #expect(try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("legacy")) == .upgraded(fromCompatibility: 3))
        let upgraded = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("legacy"))
        let (name, userVersion, applicationID) = try upgraded.read { db in
            (try String.fetchOne(db, sql: "SELECT name FROM player"),
             try Int.fetchOne(db, sql: "PRAGMA user_version"),
             try Int.fetchOne(db, sql: "PRAGMA application_id"))
        }
        #expect(name == "Arthur")
        #expect(userVersion == 7)
        #expect(applicationID == 1234)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        #expect(leftovers == ["it's a \"legacy\" file.sqlite"])
    }

    @Test func kdfIterationsAboveInt32AreRefused() throws {
        let dir = try TemporaryDirectory()
        var config = keyed("secret")
        config.cipherSettings.kdfIterations = 4_294_967_297   // SQLCipher would read 1
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config) }
        #expect(error?.message?.contains("at most 2147483647") == true)
    }

    @Test func newDatabasesRefuseTheTestingKitsFastKeyDerivation() throws {
        let dir = try TemporaryDirectory()
        var config = Configuration()
        config.passphrase = "secret"
        config.cipherSettings.kdfIterations = 1
        let path = dir.path("db.sqlite")
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: path, configuration: config).write { try $0.execute(sql: "CREATE TABLE t (a)") }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message?.contains("too few for a new database") == true)
        #expect(((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == 0)

        // A file written with one round (by the testing kit) still opens
        // with the same settings, and the floor lets raw keys through.
        let existing = dir.path("existing.sqlite")
        try makeEncryptedDatabase(at: existing, passphrase: "secret")   // the kit's one round
        #expect(try DatabaseQueue(path: existing, configuration: config).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM secret") } == 1)
        var rawConfig = Configuration()
        rawConfig.key = try .rawKey(Data(repeating: 7, count: 32))
        rawConfig.cipherSettings.kdfIterations = 1
        #expect(throws: Never.self) { try DatabaseQueue(path: dir.path("raw.sqlite"), configuration: rawConfig).write { try $0.execute(sql: "CREATE TABLE t (a)") } }

        // An export with new settings is a new database too.
        let source = try DatabaseQueue(path: existing, configuration: config)
        let exportError = #expect(throws: DatabaseError.self) {
            try source.export(to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("copy"), settings: CipherSettings(kdfIterations: 10)))
        }
        #expect(exportError?.message?.contains("too few for a new database") == true)
        var floor = CipherSettings()
        floor.kdfIterations = CipherSettings.minimumKDFIterationsForNewDatabases
        #expect(throws: Never.self) {
            try source.export(to: dir.path("floor.sqlite"), encryption: .encrypted(key: .passphrase("copy"), settings: floor))
        }
    }

    @Test func temporaryDataStaysInMemoryFromTheFirstPreparationFunction() throws {
        let dir = try TemporaryDirectory()
        var config = Configuration()
        let tempStore = LockedValue<Int?>(nil)
        config.prepareDatabase { db in
            try db.usePassphrase("secret")
            tempStore.withLock { $0 = try? Int.fetchOne(db, sql: "PRAGMA temp_store") }
            try db.execute(sql: "CREATE TEMP TABLE scratch (secret TEXT)")
        }
        _ = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
        #expect(tempStore.withLock { $0 } == 2)   // MEMORY
    }

    @Test func keysStayOutOfStatementSQLAndDecodingErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let statement = try db.makeStatement(sql: "PRAGMA key = 'sekrit-in-sql'")
            #expect(!statement.sql.contains("sekrit-in-sql"))
            let rows = try Row.fetchCursor(db, sql: "SELECT 'sekrit-in-sql' AS value -- PRAGMA key")
            let row = try #require(try rows.next())
            do {
                _ = try row.decode(Int.self, forColumn: "missing")
                Issue.record("expected a decoding error")
            } catch let error as RowDecodingError {
                #expect(!"\(error)".contains("sekrit-in-sql"))
                #expect(error.sql?.contains("sekrit-in-sql") != true)
            }
        }
    }

    @Test func aHeaderShorterThan16BytesIsNotADatabase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("short")
        try Data("SQLite".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: DatabaseError.self) { try DatabaseFile.isEncrypted(atPath: path) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
    }

    @Test func aWrongPassphraseDoesNotDisableDerivedKeysForThePool() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "right")
        let attempts = LockedValue(0)
        var config = Configuration()
        config.prepareDatabase { db in
            // The first reader is given a stale passphrase, in both of its
            // attempts (derived key, then passphrase).
            guard db.description.contains(".reader.") else { return try db.usePassphrase("right") }
            let attempt = attempts.withLock { value -> Int in
                value += 1
                return value
            }
            try db.usePassphrase(attempt <= 2 ? "stale" : "right")
        }
        let dbPool = try DatabasePool(path: path, configuration: config)
        #expect(throws: DatabaseError.self) { try dbPool.unsafeRead { _ in } }
        let salt = try #require(KeyDerivation.salt(ofDatabaseAt: path))
        #expect(dbPool.keyContext.allowsDerivedKeys(salt: salt))
        #expect(try dbPool.unsafeRead { $0.cipherState.derivedKeyAttempt != nil })
    }

    @Test func aPassphraseLongerThanInt32IsRefused() throws {
        // Zeroed pages are only mapped, not written: this costs no time.
        let huge = Data(count: Int(Int32.max) + 1)
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase(huge) }
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(configuration: config) }
        #expect(error?.message?.contains("too long") == true)
        let dbQueue = try DatabaseQueue(configuration: keyed("secret"))
        #expect(throws: DatabaseError.self) { try dbQueue.inDatabase { db in try db.changePassphrase(huge) } }
    }
}
