import Foundation
import GRDBCipherTesting
import Testing

@Suite struct RekeyTests {
    @Test func rekeyInPlaceWithTheNewPassphraseVariable() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)

        let result = try Tool.run(["rekey", path], environment: passphraseEnvironment(new: Secrets.new))
        #expect(result.status == 0, "\(result)")
        expectNoSecret(in: result)
        #expect(try SQLCipherShell.playerCount(path, keyPragma(Secrets.new)) == 3)
        #expect(throws: EncryptionCheck.Failure.self) { try SQLCipherShell.playerCount(path, keyPragma(Secrets.right)) }
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func rekeyToANewFileLeavesTheInputByteForByte() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)
        let out = directory.path("rekeyed.sqlite")

        let result = try Tool.run(
            ["rekey", path, "--output", out, "--kdf-iterations", "10000"],
            environment: passphraseEnvironment(new: Secrets.new))
        #expect(result.status == 0, "\(result)")
        expectUnchanged(since: before)
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.new) + "\nPRAGMA kdf_iter = 10000;") == 3)
        #expect(throws: EncryptionCheck.Failure.self) { try SQLCipherShell.playerCount(out, keyPragma(Secrets.new)) }
    }

    @Test func aSettingsChangeInPlaceKeepsThePassphrase() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3;")

        let result = try Tool.run(
            ["rekey", path, "--keep-passphrase", "--compatibility", "4", "--kdf-iterations", "20000"],
            environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(path, keyPragma(Secrets.right) + "\nPRAGMA kdf_iter = 20000;") == 3)
        #expect(try SQLCipherShell.run(path, keyPragma(Secrets.right) + "\nPRAGMA kdf_iter = 20000;\nPRAGMA user_version;")
            .contains("7"))
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func bothPassphrasesFromStandardInput() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)

        let result = try Tool.run(
            ["rekey", path, "--passphrase-file", "-", "--new-passphrase-file", "-"],
            stdin: "\(Secrets.right)\n\(Secrets.new)\n")
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(path, keyPragma(Secrets.new)) == 3)
    }

    @Test func aWrongPassphraseLeavesTheFileByteForByte() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        for arguments in [["rekey", path], ["rekey", path, "--output", directory.path("out.sqlite")],
                          ["rekey", path, "--keep-passphrase", "--page-size", "8192"]] {
            let result = try Tool.run(arguments, environment: passphraseEnvironment(Secrets.wrong, new: Secrets.new))
            #expect(result.status == 3, "\(result)")
            expectNoSecret(in: result)
            expectUnchanged(since: before)
            expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
        }
    }

    @Test func nothingToChangeIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let result = try Tool.run(["rekey", path, "--keep-passphrase"], environment: passphraseEnvironment())
        #expect(result.status == 64, "\(result)")
    }

    @Test func aMissingNewPassphraseIsAUsageErrorAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)
        let result = try Tool.run(["rekey", path], environment: passphraseEnvironment())
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("GRDBCIPHER_NEW_PASSPHRASE"), "\(result)")
        expectUnchanged(since: before)
    }
}
