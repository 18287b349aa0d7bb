import Foundation
import GRDBCipher
@testable import GRDBCipherTesting
import Testing

/// The round trip through the reference `sqlcipher` shell.
@Suite struct ShellCheckTests {
    static let keys: [(String, TestKey)] = [
        ("random raw key", .insecureRandomRawKey()),
        ("fast passphrase with a quote", .insecureFastPassphrase("it's a test")),
        ("raw key with its salt", try! .rawKey(Data(repeating: 7, count: 32), salt: Data(repeating: 9, count: 16))),
        ("SQLCipher 3 settings", .passphrase("three", cipherSettings: CipherSettings(compatibility: 3, kdfIterations: 2))),
    ]

    @Test(arguments: 0..<keys.count)
    func theShellReadsTheSameRowsWithEveryKindOfKey(index: Int) throws {
        let (label, key) = Self.keys[index]
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: key.configuration)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE value (id INTEGER PRIMARY KEY, i, r, t, b)")
            try db.execute(sql: "INSERT INTO value (i, r, t, b) VALUES (?, ?, ?, ?)", arguments: [1, 0.1, "a|b\nc'd", Data([0, 255])])
            try db.execute(sql: "INSERT INTO value (i, r, t, b) VALUES (NULL, 1e300, '', x'')")
        }
        try dbQueue.close()
        #expect(throws: Never.self, "\(label)") {
            try EncryptionCheck.sqlcipherShellReads(path, with: key, sameRowsAs: "SELECT * FROM value ORDER BY id;")
            // Repeated column names are fine.
            try EncryptionCheck.sqlcipherShellReads(path, with: key, sameRowsAs: "SELECT i, i, t FROM value ORDER BY id")
        }
    }

    @Test func theShellReadsAnOpenPoolAndLeavesItsWAL() throws {
        let database = try TemporaryEncryptedDatabase()
        defer { database.remove() }
        let dbPool = try database.makePool()
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE note (text TEXT)")
            try db.execute(sql: "INSERT INTO note (text) VALUES ('in the WAL')")
        }
        // Snapshots read the files, then the shell opens and closes the
        // database: the pool's locks must survive the reading, or the shell
        // takes itself for the last connection and deletes the WAL.
        _ = try FileSnapshot.database(database.path)
        try EncryptionCheck.fileIsEncrypted(database.path)
        try EncryptionCheck.sqlcipherShellReads(database.path, with: database.key, sameRowsAs: "SELECT text FROM note")
        #expect(FileManager.default.fileExists(atPath: database.path + "-wal"))
        try dbPool.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('after')") }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") } == 2)
        try dbPool.close()
        try EncryptionCheck.sqlcipherShellReads(database.path, with: database.key, sameRowsAs: "SELECT text FROM note ORDER BY rowid")
    }

    @Test func differentRowsShowTheFirstDifference() throws {
        let database = try TemporaryEncryptedDatabase()
        defer { database.remove() }
        try writeNote("a note", at: database.path, configuration: database.configuration)
        // random(): each side draws its own.
        let message = try #require(try failureMessage {
            try EncryptionCheck.sqlcipherShellReads(database.path, with: database.key, sameRowsAs: "SELECT text, random() FROM note")
        })
        #expect(message.contains("the sqlcipher shell read 1 rows from \(database.path), GRDBCipher 1; row 1: GRDBCipher read ('a note', "), "\(message)")
        #expect(message.contains("the shell read ('a note', "), "\(message)")
    }

    @Test func aWrongKeyOrAStatementWithoutColumnsFails() throws {
        let database = try TemporaryEncryptedDatabase()
        defer { database.remove() }
        try writeNote(at: database.path, configuration: database.configuration)
        let wrongKey = try #require(try failureMessage {
            try EncryptionCheck.sqlcipherShellReads(database.path, with: .insecureRandomRawKey(), sameRowsAs: "SELECT * FROM note")
        })
        #expect(wrongKey.contains("GRDBCipher cannot read \(database.path) with the key: SQLITE_NOTADB"), "\(wrongKey)")
        let noColumn = try #require(try failureMessage {
            try EncryptionCheck.sqlcipherShellReads(database.path, with: database.key, sameRowsAs: "DELETE FROM note")
        })
        #expect(noColumn.contains("the query returns no column"), "\(noColumn)")
    }

    @Test func theShellGetsTheKeyOnItsStandardInputAndNeverShowsIt() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let key = TestKey.insecureFastPassphrase("shell-secret-5e0b")
        try SQLCipherShell.run(path, key: key, script: "CREATE TABLE t(a); INSERT INTO t VALUES (42);")
        try EncryptionCheck.opens(path, with: key.configuration)
        #expect(try SQLCipherShell.run(path, key: key, script: "SELECT a FROM t;") == "42\n")
        #expect(SQLCipherShell.keyStatements(key).first == "PRAGMA key = 'shell-secret-5e0b';")

        let message = try #require(try failureMessage {
            try SQLCipherShell.run(path, key: key, script: "SELECT 'shell-secret-5e0b' FROM missing_table;")
        })
        #expect(message.contains("no such table: missing_table"), "\(message)")
        #expect(!message.contains("shell-secret"), "\(message)")
    }

    @Test func theShellTakesEverySetting() {
        let key = TestKey.passphrase("p", cipherSettings: CipherSettings(
            compatibility: 3, kdfIterations: 10, kdfAlgorithm: .pbkdf2HMACSHA256, hmacAlgorithm: .hmacSHA256,
            pageSize: 8192, usesHMAC: true, plaintextHeaderSize: 32))
        #expect(SQLCipherShell.keyStatements(key) == [
            "PRAGMA key = 'p';",
            "PRAGMA cipher_compatibility = 3;",
            "PRAGMA cipher_page_size = 8192;",
            "PRAGMA kdf_iter = 10;",
            "PRAGMA cipher_kdf_algorithm = PBKDF2_HMAC_SHA256;",
            "PRAGMA cipher_use_hmac = ON;",
            "PRAGMA cipher_hmac_algorithm = HMAC_SHA256;",
            "PRAGMA cipher_plaintext_header_size = 32;",
        ])
        let raw = try! TestKey.rawKey(Data(repeating: 0xAB, count: 32), salt: Data(repeating: 0x01, count: 16))
        #expect(SQLCipherShell.keyStatements(raw) == ["PRAGMA key = \"x'\(String(repeating: "AB", count: 32))\(String(repeating: "01", count: 16))'\";"])
    }
}
