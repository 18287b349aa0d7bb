import Foundation
import GRDBCipherTesting
import Testing

/// Commands that fail for other reasons than a wrong passphrase leave their
/// input byte for byte as it was, and no new file behind.
@Suite struct FailureTests {
    @Test func aDamagedSourceFailsTheCopyAndLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        var bytes = try fileBytes(path)
        bytes[4096 + 300] ^= 0x01   // page 2: the rows, not the schema
        try bytes.write(to: URL(fileURLWithPath: path))
        let damaged = try FileSnapshot.database(path)

        for arguments in [["decrypt", path, directory.path("clear.sqlite"), "--plaintext-ok"],
                          ["export", path, directory.path("copy.sqlite")],
                          ["rekey", path, "--keep-passphrase", "--kdf-iterations", "1000"]] {
            let result = try Tool.run(arguments, environment: passphraseEnvironment())
            #expect(result.status == 1, "\(result)")
            expectUnchanged(since: damaged)
            if !expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"]) { Issue.record("after \(arguments)") }
        }
    }

    @Test func aFailedStatementChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(
            ["sql", path, "INSERT INTO player(id, name) VALUES (1, 'duplicate')"], environment: passphraseEnvironment())
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("UNIQUE"), "\(result)")
        expectUnchanged(since: before)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func aMissingOutputFolderFailsBeforeAnything() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(
            ["backup", path, directory.path("missing/backup.sqlite")], environment: passphraseEnvironment())
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("does not exist"), "\(result)")
        expectUnchanged(since: before)
    }

    @Test func theOutputCannotBeTheInput() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(["export", path, path, "--replace"], environment: passphraseEnvironment())
        #expect(result.status == 4, "\(result)")
        expectUnchanged(since: before)
    }

    @Test func aWALFileStaysInWALModeThroughARekey() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA journal_mode = WAL;")

        let result = try Tool.run(["rekey", path], environment: passphraseEnvironment(new: Secrets.new))
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.run(path, keyPragma(Secrets.new) + "\nPRAGMA journal_mode;").contains("wal"))
        #expect(try SQLCipherShell.playerCount(path, keyPragma(Secrets.new)) == 3)
    }
}
