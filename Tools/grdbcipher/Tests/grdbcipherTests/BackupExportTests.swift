import Foundation
import GRDBCipherTesting
import Testing

@Suite struct BackupExportTests {
    @Test func backupWritesACopyWithTheSameKey() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, rows: 500)
        let before = try FileSnapshot.database(path)
        let out = directory.path("backup.sqlite")

        let result = try Tool.run(["backup", path, out, "--pages-per-step", "2"], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        expectNoSecret(in: result)
        #expect(!result.stderr.contains("\r"), "no progress bar when standard error is not a terminal")
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.right)) == 500)
        expectUnchanged(since: before)
        expectDirectory(directory.url.path, holdsExactly: ["backup.sqlite", "db.sqlite"])
    }

    @Test(arguments: ["0", "3000000000"])
    func aPagesPerStepOutOfRangeIsAUsageError(count: String) throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, rows: 5)
        let result = try Tool.run(["backup", path, directory.path("backup.sqlite"), "--pages-per-step", count],
                                  environment: passphraseEnvironment())
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--pages-per-step"), "\(result)")
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func backupShowsProgressWhenAsked() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, rows: 500)

        let result = try Tool.run(
            ["backup", path, directory.path("backup.sqlite"), "--pages-per-step", "1", "--progress"],
            environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("backup ["), "\(result)")
        #expect(result.stderr.contains("100%"), "\(result)")
    }

    @Test func backupOfSQLCipher3FileKeepsItsSettings() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3;")
        let out = directory.path("backup.sqlite")

        let result = try Tool.run(["backup", path, out], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.right) + "\nPRAGMA cipher_compatibility = 3;") == 3)
    }

    @Test func backupRefusesAPlaintextInput() throws {
        let directory = try TemporaryDirectory()
        let plain = try makePlaintextDatabase(in: directory)
        let result = try Tool.run(["backup", plain, directory.path("out.sqlite")], environment: passphraseEnvironment())
        #expect(result.status == 4, "\(result)")
        expectDirectory(directory.url.path, holdsExactly: ["plain.sqlite"])
    }

    @Test func backupWithAWrongPassphraseLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)
        let result = try Tool.run(
            ["backup", path, directory.path("out.sqlite")], environment: passphraseEnvironment(Secrets.wrong))
        #expect(result.status == 3, "\(result)")
        expectNoSecret(in: result)
        expectUnchanged(since: before)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func exportKeepsTheKeyAndChangesTheSettings() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)
        let out = directory.path("v3.sqlite")

        let result = try Tool.run(["export", path, out, "--compatibility", "3"], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.right) + "\nPRAGMA cipher_compatibility = 3;") == 3)
        expectUnchanged(since: before)
    }

    @Test func exportWithANewPassphraseFromAFile() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let newFile = try write(Secrets.new + "\n", to: directory.path("new-passphrase"))
        let out = directory.path("copy.sqlite")

        let result = try Tool.run(
            ["export", path, out, "--new-passphrase-file", newFile], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        expectNoSecret(in: result)
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.new)) == 3)
    }

    @Test func exportReadsAnSQLCipher3FileWithGivenSettings() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3; PRAGMA kdf_iter = 5000;")
        let out = directory.path("v4.sqlite")

        let result = try Tool.run(
            ["export", path, out, "--from-compatibility", "3", "--from-kdf-iterations", "5000",
             "--compatibility", "4", "--kdf-iterations", "256000"],
            environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.right)) == 3)
    }

    @Test func exportRefusesAnExistingOutput() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let out = try write("keep me", to: directory.path("copy.sqlite"))

        let result = try Tool.run(["export", path, out], environment: passphraseEnvironment())
        #expect(result.status == 4, "\(result)")
        #expect(try fileBytes(out) == Data("keep me".utf8))
    }
}
