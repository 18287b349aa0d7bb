import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

let rawKeyBytes = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })
let rawSaltBytes = Data((0..<16).map { UInt8(0xA0 + $0) })

func hex(_ data: Data) -> String {
    data.map { String(format: "%02x", $0) }.joined()
}

@Suite struct RawKeyTests {
    func rawKeyed(salt: Data? = nil) throws -> Configuration {
        var config = Configuration()
        config.key = try .rawKey(rawKeyBytes, salt: salt)
        return config
    }

    @Test func theShellReadsWhatARawKeyWrote() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("raw.sqlite")
        try DatabaseQueue(path: path, configuration: rawKeyed()).write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT); INSERT INTO t VALUES ('raw')")
        }
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = \"x'\(hex(rawKeyBytes))'\";\nSELECT value FROM t;\n")
        #expect(output.contains("raw"))
        #expect(try !file(path, contains: "SQLite format 3"))
    }

    @Test func aRawKeyOpensWhatTheShellWroteWithIt() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("shell.sqlite")
        try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = "x'\(hex(rawKeyBytes))'";
            CREATE TABLE t (value TEXT);
            INSERT INTO t VALUES ('shell raw');
            """)
        #expect(try DatabaseQueue(path: path, configuration: rawKeyed()).read {
            try String.fetchOne($0, sql: "SELECT value FROM t")
        } == "shell raw")
        // Pools use the raw key as is on every connection.
        let dbPool = try DatabasePool(path: path, configuration: rawKeyed())
        #expect(try dbPool.read { try String.fetchOne($0, sql: "SELECT value FROM t") } == "shell raw")
        #expect(try dbPool.unsafeRead { db in db.cipherState.derivedKeyAttempt == nil })
    }

    @Test func aSaltGivenWithTheKeyIsTheFilesSalt() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("salted.sqlite")
        try DatabaseQueue(path: path, configuration: rawKeyed(salt: rawSaltBytes)).write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT)")
        }
        #expect(try fileBytes(path).prefix(16) == rawSaltBytes)
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = \"x'\(hex(rawKeyBytes))'\";\nPRAGMA cipher_salt;\n")
        #expect(output.contains(hex(rawSaltBytes)))
    }

    @Test func aPlaintextHeaderNeedsTheSaltWithTheKey() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("header.sqlite")
        var config = try rawKeyed(salt: rawSaltBytes)
        config.cipherSettings.plaintextHeaderSize = 32
        try DatabaseQueue(path: path, configuration: config).write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT); INSERT INTO t VALUES ('MARKER-header')")
        }
        #expect(try fileBytes(path).prefix(15) == Data("SQLite format 3".utf8))
        #expect(try !file(path, contains: "MARKER-header"))
        #expect(try DatabaseQueue(path: path, configuration: config).read {
            try String.fetchOne($0, sql: "SELECT value FROM t")
        } == "MARKER-header")
        let output = try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = "x'\(hex(rawKeyBytes))\(hex(rawSaltBytes))'";
            PRAGMA cipher_plaintext_header_size = 32;
            SELECT value FROM t;
            """)
        #expect(output.contains("MARKER-header"))
    }

    @Test func aPlaintextHeaderFileWrittenByTheShellOpens() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("shell-header.sqlite")
        try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = "x'\(hex(rawKeyBytes))\(hex(rawSaltBytes))'";
            PRAGMA cipher_plaintext_header_size = 32;
            CREATE TABLE t (value TEXT);
            INSERT INTO t VALUES ('shell header');
            """)
        #expect(try fileBytes(path).prefix(15) == Data("SQLite format 3".utf8))
        var config = try rawKeyed(salt: rawSaltBytes)
        config.cipherSettings.plaintextHeaderSize = 32
        #expect(try DatabaseQueue(path: path, configuration: config).read {
            try String.fetchOne($0, sql: "SELECT value FROM t")
        } == "shell header")
        #expect(try DatabasePool(path: path, configuration: config).read {
            try String.fetchOne($0, sql: "SELECT value FROM t")
        } == "shell header")
    }

    @Test(arguments: [0, 16, 31, 33, 64])
    func aRawKeyOfTheWrongLengthIsAClearError(_ length: Int) throws {
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseKey.rawKey(Data(repeating: 1, count: length))
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message == "a raw key must be 32 bytes long, not \(length)")
    }

    @Test(arguments: [0, 15, 17, 32])
    func aSaltOfTheWrongLengthIsAClearError(_ length: Int) throws {
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseKey.rawKey(rawKeyBytes, salt: Data(repeating: 1, count: length))
        }
        #expect(error?.message == "a raw key's salt must be 16 bytes long, not \(length)")
    }

    @Test func aWrongRawKeyFailsLikeAWrongPassphrase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("raw.sqlite")
        try DatabaseQueue(path: path, configuration: rawKeyed()).write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT)")
        }
        var wrong = Configuration()
        wrong.key = try .rawKey(Data(repeating: 9, count: 32))
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: wrong) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
    }

    @Test func rawKeysNeverShowTheirBytes() throws {
        let key = try DatabaseKey.rawKey(rawKeyBytes, salt: rawSaltBytes)
        var config = Configuration()
        config.key = key
        let hexKey = hex(rawKeyBytes)
        for text in [key.description, String(describing: key), config.description, String(reflecting: config)] {
            #expect(!text.contains(hexKey))
            #expect(!text.contains(hex(rawSaltBytes)))
        }
        #expect(key.isRawKey)
        #expect(config.passphrase == nil)
        #expect(!DatabaseKey.passphrase("x'abc'").isRawKey)
    }

    @Test func queuesAndPoolsRotateBetweenPassphrasesAndRawKeys() throws {
        let dir = try TemporaryDirectory()
        let queuePath = dir.path("queue.sqlite")
        try makeEncryptedDatabase(at: queuePath, passphrase: "before")
        let dbQueue = try DatabaseQueue(path: queuePath, configuration: keyed("before"))
        try dbQueue.changeKey(.rawKey(rawKeyBytes))
        try dbQueue.close()
        #expect(try DatabaseQueue(path: queuePath, configuration: rawKeyed()).read(secretRowCount) == 1)
        #expect(throws: DatabaseError.self) { try DatabaseQueue(path: queuePath, configuration: keyed("before")) }

        let dbPool = try makePool(dir, rows: 3)
        try dbPool.changeKey(.rawKey(rawKeyBytes, salt: rawSaltBytes))
        #expect(try dbPool.read(rowCount) == 3)
        try dbPool.changeKey(.passphrase("after"))
        #expect(try dbPool.read(rowCount) == 3)
        try dbPool.close()
        #expect(try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyed("after")).read(rowCount) == 3)
    }
}

func secretRowCount(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM secret")!
}

@Suite struct AsyncKeyChangeTests {
    @Test func aQueueChangesItsKeyFromAnAsyncContext() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "before")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("before"))
        try await dbQueue.changeKey(.rawKey(rawKeyBytes))
        try await dbQueue.close()
        var config = Configuration()
        config.key = try .rawKey(rawKeyBytes)
        #expect(try await DatabaseQueue(path: path, configuration: config).read(secretRowCount) == 1)
    }
}

@Suite struct PlaintextHeaderKeyTests {
    @Test(arguments: [false, true])
    func aPlaintextHeaderRefusesAKeyWithoutItsSalt(_ usesRawKey: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("header.sqlite")
        var config = Configuration()
        config.key = usesRawKey ? try .rawKey(rawKeyBytes) : .passphrase("no salt")
        config.cipherSettings.plaintextHeaderSize = 32
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: config) }
        #expect(error?.message?.contains("salt") == true)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(size == 0)
    }
}
