import Foundation
import GRDBCipherTesting
import Testing

/// In-place commands while another process, an `sqlcipher` shell, has the
/// database open and commits: every commit it was told succeeded is in the
/// file afterwards, whatever the command did.
@Suite struct ConcurrentWriterTests {
    /// A shell with its own connection to `path`, that has committed `ack-1`.
    private func writer(on path: String) throws -> RunningProcess {
        let writer = try RunningProcess.shell(path)
        writer.send("""
            \(keyPragma(Secrets.right))
            PRAGMA busy_timeout = 30000;
            INSERT INTO player(name) VALUES ('ack-1');
            SELECT 'ack-1';
            """)
        try #require(writer.waitForLine("ack-1") != nil, "the writer must commit: \(writer.waitUntilExit())")
        return writer
    }

    /// The rows the writer was told it committed: each `ack-N` line follows
    /// its statement, and the shell stops at the first error (`-bail`).
    private func acknowledged(_ writer: RunningProcess) -> [String] {
        writer.lines.filter { $0.hasPrefix("ack-") }
    }

    /// The `ack-N` rows in the file, read with `script` (key and settings).
    private func committed(_ path: String, _ script: String) throws -> Set<String> {
        let output = try SQLCipherShell.run(path, script + "\nSELECT name FROM player WHERE name LIKE 'ack-%';")
        return Set(output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("ack-") })
    }

    @Test func aSettingsChangeLosesNoCommitOfAWriterInRollbackMode() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, rows: 300)
        let writer = try writer(on: path)
        // A transaction that holds the write lock as the rekey starts: the
        // rekey waits for its commit, then takes the lock, and keeps it.
        writer.send("BEGIN IMMEDIATE;\nINSERT INTO player(name) VALUES ('ack-2');\nSELECT 'holding';")
        try #require(writer.waitForLine("holding") != nil, "\(writer.waitUntilExit())")
        let rekey = try RunningProcess.tool(
            ["rekey", path, "--keep-passphrase", "--kdf-iterations", "20000"], environment: passphraseEnvironment())
        writer.send("COMMIT;\nSELECT 'ack-2';")
        let result = rekey.waitUntilExit()

        // The writer's connection outlived the rename. Its next commit must
        // fail, or be in the file: never acknowledged and lost.
        writer.send("INSERT INTO player(name) VALUES ('ack-3');\nSELECT 'ack-3';")
        writer.send(".quit")
        let writerResult = writer.waitUntilExit()
        let acknowledged = acknowledged(writer)

        #expect(result.status == 0, "an idle writer in rollback mode does not stop the rekey: \(result)")
        let settings = keyPragma(Secrets.right) + (result.status == 0 ? "\nPRAGMA kdf_iter = 20000;" : "")
        let rows = try committed(path, settings)
        for ack in acknowledged {
            #expect(rows.contains(ack), "\(ack) was acknowledged to the writer and is missing; rekey: \(result); writer: \(writerResult)")
        }
        #expect(acknowledged.contains("ack-2"), "\(writerResult)")
        #expect(!acknowledged.contains("ack-3"), "the replaced file must refuse the writer: \(writerResult)")
        #expect(writerResult.stderr.contains("not a database"), "\(writerResult)")
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func aSettingsChangeLosesNoCommitOfAWriterThatCommitsThroughout() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, rows: 3_000)
        let writer = try writer(on: path)
        let rekey = try RunningProcess.tool(
            ["rekey", path, "--keep-passphrase", "--kdf-iterations", "20000"], environment: passphraseEnvironment())
        // One commit after the other, each once the last is acknowledged,
        // until the rekey has ended, and one more after: some land before
        // the copy, some while the rekey holds the file, one after the rename.
        var next = 2
        var rekeyEnded = false
        while !rekeyEnded || next < 4 {
            rekeyEnded = rekey.hasExited
            writer.send("INSERT INTO player(name) VALUES ('ack-\(next)');\nSELECT 'ack-\(next)';")
            guard writer.waitForLine("ack-\(next)") != nil else { break }
            next += 1
        }
        let result = rekey.waitUntilExit()
        writer.send(".quit")
        let writerResult = writer.waitUntilExit()
        let acknowledged = acknowledged(writer)

        // A writer that never lets go could keep the rekey from its lock:
        // it then refuses, which loses nothing either.
        #expect(result.status == 0 || result.stderr.contains("another process"), "\(result)")
        let settings = keyPragma(Secrets.right) + (result.status == 0 ? "\nPRAGMA kdf_iter = 20000;" : "")
        let rows = try committed(path, settings)
        let missing = acknowledged.filter { !rows.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(acknowledged.count) acknowledged commits are missing: \(missing); writer: \(writerResult)")
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func aSettingsChangeIsRefusedWhileAWriterHasTheFileOpenInWALMode() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        try SQLCipherShell.run(path, keyPragma(Secrets.right) + "\nPRAGMA journal_mode = WAL;")
        let writer = try writer(on: path)

        let result = try Tool.run(
            ["rekey", path, "--keep-passphrase", "--kdf-iterations", "20000"], environment: passphraseEnvironment())
        writer.send("INSERT INTO player(name) VALUES ('ack-2');\nSELECT 'ack-2';")
        #expect(writer.waitForLine("ack-2") != nil, "the writer goes on after a refused rekey")
        writer.send(".quit")
        let writerResult = writer.waitUntilExit()

        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("another process has it open"), "\(result)")
        expectNoSecret(in: result)
        #expect(try committed(path, keyPragma(Secrets.right)) == ["ack-1", "ack-2"], "\(writerResult)")
        #expect(throws: EncryptionCheck.Failure.self) {
            try SQLCipherShell.playerCount(path, keyPragma(Secrets.right) + "\nPRAGMA kdf_iter = 20000;")
        }
    }

    @Test func anUpgradeIsRefusedWhileAWriterHasTheFileOpenInWALMode() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3;")
        let v3 = keyPragma(Secrets.right) + "\nPRAGMA cipher_compatibility = 3;"
        try SQLCipherShell.run(path, v3 + "\nPRAGMA journal_mode = WAL;")
        let writer = try RunningProcess.shell(path)
        writer.send(v3 + "\nPRAGMA busy_timeout = 30000;\nINSERT INTO player(name) VALUES ('ack-1');\nSELECT 'ack-1';")
        try #require(writer.waitForLine("ack-1") != nil, "\(writer.waitUntilExit())")

        let result = try Tool.run(["upgrade", path], environment: passphraseEnvironment())
        writer.send("INSERT INTO player(name) VALUES ('ack-2');\nSELECT 'ack-2';")
        #expect(writer.waitForLine("ack-2") != nil, "the writer goes on after a refused upgrade")
        writer.send(".quit")
        _ = writer.waitUntilExit()

        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("another process has it open"), "\(result)")
        #expect(try committed(path, v3) == ["ack-1", "ack-2"])
    }
}
