import Foundation
import Testing
@testable import GRDBCipher

/// The in-place operations while another process, an `sqlcipher` shell, has
/// the database open: they are refused, or the other process's next commit
/// fails. A commit it was told succeeded is never lost.
@Suite struct InPlaceConcurrencyTests {
    /// A shell with a connection to the database at `path`, keyed with
    /// "old", that has read it (and, in WAL mode, keeps it open for good).
    private func otherProcess(on path: String) throws -> ShellSession {
        let shell = try ShellSession(path)
        shell.send("PRAGMA key = 'old';\nPRAGMA busy_timeout = 30000;\nSELECT COUNT(*) FROM secret;\nSELECT 'ready';")
        try #require(shell.waitForLine("ready") != nil, "\(shell.errorOutput)")
        return shell
    }

    private func secretValues(_ path: String, _ configuration: Configuration) throws -> [String] {
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? dbQueue.close() }
        return try dbQueue.read { try String.fetchAll($0, sql: "SELECT value FROM secret ORDER BY id") }
    }

    @Test func anIdleConnectionOfAnotherProcessCannotCommitIntoAReencryptedFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "old", marker: "first")
        let shell = try otherProcess(on: path)

        // In rollback-journal mode the idle connection holds no lock.
        try DatabaseFile.reencrypt(atPath: path, key: .passphrase("old"), newKey: .passphrase("new"))
        try expectNoCommitIntoTheReplacedFile(shell, path)
    }

    @Test func anIdleConnectionOfAnotherProcessCannotCommitIntoAReplacedFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "old", marker: "first")
        let source = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("old"))
        try source.export(to: dir.path("new.sqlite"), encryption: .encrypted(key: .passphrase("new")))
        try source.close()
        let shell = try otherProcess(on: path)

        try DatabaseFile.replace(atPath: path, with: dir.path("new.sqlite"))
        try expectNoCommitIntoTheReplacedFile(shell, path)
    }

    @Test func reencryptIsRefusedWhileAnotherProcessHasTheFileOpenInWALMode() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyedWithDefaultSettings("old"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE secret (id INTEGER PRIMARY KEY, value TEXT); INSERT INTO secret (value) VALUES ('first')")
        }
        try dbPool.close()
        let shell = try otherProcess(on: path)

        let error = #expect(throws: DatabaseError.self) {
            try DatabaseFile.reencrypt(atPath: path, key: .passphrase("old"), newKey: .passphrase("new"))
        }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(error?.message?.contains("another process has it open") == true, "\(String(describing: error))")
        shell.send("INSERT INTO secret (value) VALUES ('after');\nSELECT 'ack after';")
        #expect(shell.waitForLine("ack after") != nil, "\(shell.errorOutput)")
        shell.finish()
        #expect(try secretValues(path, keyedWithDefaultSettings("old")) == ["first", "after"])
    }

    @Test func replaceIsRefusedWhileAnotherProcessHoldsATransaction() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabaseWithDefaultSettings(at: path, passphrase: "old", marker: "first")
        let source = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("old"))
        try source.export(to: dir.path("new.sqlite"), encryption: .encrypted(key: .passphrase("new")))
        try source.close()
        let shell = try otherProcess(on: path)
        shell.send("BEGIN IMMEDIATE;\nINSERT INTO secret (value) VALUES ('pending');\nSELECT 'holding';")
        try #require(shell.waitForLine("holding") != nil, "\(shell.errorOutput)")

        let error = #expect(throws: DatabaseError.self) { try DatabaseFile.replace(atPath: path, with: dir.path("new.sqlite")) }
        #expect(error?.resultCode == .SQLITE_BUSY)
        shell.send("COMMIT;\nSELECT 'ack pending';")
        #expect(shell.waitForLine("ack pending") != nil, "\(shell.errorOutput)")
        shell.finish()
        #expect(try secretValues(path, keyedWithDefaultSettings("old")) == ["first", "pending"])
        #expect(FileManager.default.fileExists(atPath: dir.path("new.sqlite")))
    }

    /// The connection of `shell`, opened on `path` before the file was replaced,
    /// tries to commit: it must fail ("not a database"), and the new file must
    /// hold only what it held.
    private func expectNoCommitIntoTheReplacedFile(_ shell: ShellSession, _ path: String) throws {
        shell.send("INSERT INTO secret (value) VALUES ('late');\nSELECT 'ack late';")
        shell.finish()
        #expect(!shell.lines.contains("ack late"), "a commit into the replaced file would be lost")
        #expect(shell.errorOutput.contains("not a database"), "\(shell.errorOutput)")
        #expect(try secretValues(path, keyedWithDefaultSettings("new")) == ["first"])
    }
}
