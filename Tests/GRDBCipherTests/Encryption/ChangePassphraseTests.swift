import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

@Suite struct ChangePassphraseTests {
    @Test func oldPassphraseFailsNewWorksDataIntact() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "old", marker: "kept")

        let dbQueue = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("old"))
        try dbQueue.changePassphrase("new")
        // The connection keeps working after the change.
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT value FROM secret") } == "kept")
        try dbQueue.close()

        let error = #expect(throws: DatabaseError.self) {
            _ = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("old"))
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        let reopened = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("new"))
        #expect(try reopened.read { db in try String.fetchOne(db, sql: "SELECT value FROM secret") } == "kept")
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'new';\nSELECT value FROM secret;\n")
        #expect(output.contains("kept"))
        #expect(try !file(path, contains: "kept"))
    }

    @Test func asyncChangePassphrase() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "old")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("old"))
        try await dbQueue.changePassphrase("new")
        try await dbQueue.close()
        let reopened = try DatabaseQueue(path: path, configuration: keyed("new"))
        #expect(try await reopened.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM secret") } == 1)
    }

    @Test func changingThePassphraseOfAPlaintextDatabaseFails() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("plain.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.changePassphrase("new")
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message?.contains("not encrypted") == true)
        #expect(try file(path, contains: "SQLite format 3"))
    }

    @Test func emptyPassphrasesAreRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        #expect(throws: DatabaseError.self) {
            _ = try DatabaseQueue(path: path, configuration: keyed(""))
        }
        try makeEncryptedDatabase(at: path, passphrase: "old")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("old"))
        #expect(throws: DatabaseError.self) {
            try dbQueue.changePassphrase("")
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM secret") } == 1)
    }
}
