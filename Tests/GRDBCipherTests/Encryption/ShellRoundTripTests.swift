import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

/// The `sqlcipher` shell is the independent peer: it must read what we write,
/// and we must read what it writes.
@Suite struct ShellRoundTripTests {
    @Test func theShellReadsWhatGRDBCipherWrote() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "p4ss'word", marker: "written-by-grdbcipher")

        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'p4ss''word';\nSELECT value FROM secret;\n")
        #expect(output.contains("written-by-grdbcipher"))
    }

    @Test func theRawFileHoldsNoPlaintext() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "secret", marker: "MARKER-7f3a9")

        #expect(try !file(path, contains: "SQLite format 3"))
        #expect(try !file(path, contains: "MARKER-7f3a9"))
        #expect(try !file(path, contains: "CREATE TABLE"))
    }

    @Test func grdbcipherReadsWhatTheShellWrote() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("shell.sqlite")
        try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = 'shell passphrase';
            CREATE TABLE t (a INTEGER, b TEXT);
            INSERT INTO t VALUES (1, 'from-the-shell'), (2, NULL);
            """)
        #expect(try !file(path, contains: "from-the-shell"))

        let dbQueue = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("shell passphrase"))
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY a") }
        #expect(rows == [["a": 1, "b": "from-the-shell"], ["a": 2, "b": nil]])
    }

    @Test func theShellFailsWithAWrongPassphraseOnOurFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        #expect(throws: EncryptionCheck.Failure.self) {
            try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'wrong';\nSELECT count(*) FROM secret;\n")
        }
    }
}
