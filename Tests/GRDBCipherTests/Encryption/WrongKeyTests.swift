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
        #expect(error?.hint?.contains("not an SQLCipher database") == true)
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
}
