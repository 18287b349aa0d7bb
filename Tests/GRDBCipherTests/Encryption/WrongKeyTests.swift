import Foundation
import Testing
@testable import GRDBCipher

@Suite struct WrongKeyTests {
    @Test func wrongPassphraseFailsClearlyAndLeavesTheFileUntouched() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        let before = try fileBytes(path)

        let error = #expect(throws: DatabaseError.self) {
            _ = try DatabaseQueue(path: path, configuration: keyed("wrong"))
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        // SQLite's message, as GRDB reports it; the advice is in `hint`.
        #expect(error?.message == "file is not a database")
        #expect(error?.hint?.contains("wrong passphrase") == true)
        #expect(error?.description.hasPrefix("SQLite error 26: file is not a database") == true)
        #expect(try fileBytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test func missingPassphraseOnAnEncryptedFileFails() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        let before = try fileBytes(path)

        let error = #expect(throws: DatabaseError.self) {
            _ = try DatabaseQueue(path: path)
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        #expect(error?.message == "file is not a database")
        #expect(error?.hint?.contains("opened without a key") == true)
        #expect(try fileBytes(path) == before)
    }

    @Test func passphraseOnAPlaintextFileFails() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("plain.sqlite")
        let plain = try DatabaseQueue(path: path)
        try plain.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        try plain.close()
        let before = try fileBytes(path)
        #expect(try file(path, contains: "SQLite format 3"))

        let error = #expect(throws: DatabaseError.self) {
            _ = try DatabaseQueue(path: path, configuration: keyed("secret"))
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        #expect(try fileBytes(path) == before)
    }

    @Test func aDamagedPageReadsDifferentlyFromAWrongKey() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("right"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            for index in 0..<200 {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [String(repeating: "x", count: 100) + "\(index)"])
            }
        }
        try dbQueue.close()

        // Flip one byte inside page 2 (pages are 4096 bytes).
        var bytes = try fileBytes(path)
        #expect(bytes.count > 3 * 4096)
        bytes[4096 + 100] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))

        let reopened = try DatabaseQueue(path: path, configuration: keyed("right"))
        let error = #expect(throws: DatabaseError.self) {
            try reopened.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t") }
        }
        #expect(error?.resultCode == .SQLITE_CORRUPT)
        #expect(error?.message == "database disk image is malformed")
        #expect(error?.hint?.contains("failed authentication") == true)
        #expect(error?.hint?.contains("wrong passphrase") == false)
    }

    // Each usual key mistake says what is wrong where logs look, while
    // `resultCode` and `message` stay SQLite's.

    @Test func eachKeyMistakeReadsDistinctlyInDescriptions() throws {
        let dir = try TemporaryDirectory()
        let encrypted = dir.path("encrypted.sqlite")
        try makeEncryptedDatabase(at: encrypted, passphrase: "right-passphrase")
        let plain = dir.path("plain.sqlite")
        try DatabaseQueue(path: plain).write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let version3 = dir.path("v3.sqlite")
        var v3Config = Configuration()
        v3Config.passphrase = "right-passphrase"
        v3Config.cipherSettings = .sqlcipher3
        try DatabaseQueue(path: version3, configuration: v3Config).write { db in try db.execute(sql: "CREATE TABLE t (a)") }

        func openError(_ path: String, _ configuration: Configuration) -> DatabaseError? {
            #expect(throws: DatabaseError.self) { _ = try DatabaseQueue(path: path, configuration: configuration) }
        }
        let mistakes: [(DatabaseError?, String)] = [
            (openError(encrypted, keyed("wrong-passphrase")), "wrong passphrase or key"),
            (openError(plain, keyed("right-passphrase")), "the file is not encrypted"),
            (openError(encrypted, Configuration()), "opened without a key"),
            (openError(version3, keyedWithDefaultSettings("right-passphrase")), "SQLCipher 3's cipher settings"),
        ]
        var descriptions: Set<String> = []
        for (error, advice) in mistakes {
            let error = try #require(error)
            #expect(error.resultCode == .SQLITE_NOTADB)
            #expect(error.message == "file is not a database")
            #expect(error.hint?.contains(advice) == true, "\(error)")
            #expect(error.description.hasPrefix("SQLite error 26: file is not a database (") == true)
            #expect(error.description.contains(advice))
            #expect((error as Error).localizedDescription.contains(advice))
            #expect(!error.description.contains("right-passphrase") && !error.description.contains("wrong-passphrase"))
            descriptions.insert(error.hint ?? "")
        }
        #expect(descriptions.count == mistakes.count)
    }

    @Test func readOnlyAndPreparedKeysAreDiagnosedToo() throws {
        let dir = try TemporaryDirectory()
        let plain = dir.path("plain.sqlite")
        try DatabaseQueue(path: plain).write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        // A key applied by a preparation function, GRDB's way.
        var prepared = Configuration()
        prepared.prepareDatabase { db in try db.usePassphrase("secret") }
        let error = #expect(throws: DatabaseError.self) { _ = try DatabaseQueue(path: plain, configuration: prepared) }
        #expect(error?.hint?.contains("the file is not encrypted") == true)

        let encrypted = dir.path("encrypted.sqlite")
        try makeEncryptedDatabase(at: encrypted, passphrase: "right")
        var readonly = keyed("wrong")
        readonly.readonly = true
        let readonlyError = #expect(throws: DatabaseError.self) { _ = try DatabaseQueue(path: encrypted, configuration: readonly) }
        #expect(readonlyError?.hint?.contains("wrong passphrase or key") == true)
        var unkeyedReadonly = Configuration()
        unkeyedReadonly.readonly = true
        let unkeyedError = #expect(throws: DatabaseError.self) {
            _ = try DatabaseQueue(path: encrypted, configuration: unkeyedReadonly)
        }
        #expect(unkeyedError?.hint?.contains("opened without a key") == true)
    }
}
