import Foundation
import GRDBCipherTesting
import Testing

@Suite struct EncryptDecryptTests {
    @Test func encryptWritesAFileTheShellOpensWithTheKey() throws {
        let directory = try TemporaryDirectory()
        let plain = try makePlaintextDatabase(in: directory)
        let before = try FileSnapshot.database(plain)
        let out = directory.path("encrypted.sqlite")

        let result = try Tool.run(["encrypt", plain, out], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        expectNoSecret(in: result)
        #expect(try !isPlaintextSQLite(out))
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.right)) == 2)
        #expect(try SQLCipherShell.run(out, keyPragma(Secrets.right) + "\nPRAGMA user_version;").contains("3"))
        #expect(throws: EncryptionCheck.Failure.self) { try SQLCipherShell.playerCount(out, keyPragma(Secrets.wrong)) }
        expectUnchanged(since: before)
    }

    @Test func encryptWithSQLCipher3Settings() throws {
        let directory = try TemporaryDirectory()
        let plain = try makePlaintextDatabase(in: directory)
        let out = directory.path("v3.sqlite")

        let result = try Tool.run(["encrypt", plain, out, "--compatibility", "3"], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.right) + "\nPRAGMA cipher_compatibility = 3;") == 2)
        #expect(throws: EncryptionCheck.Failure.self) { try SQLCipherShell.playerCount(out, keyPragma(Secrets.right)) }
    }

    @Test func encryptRefusesAnExistingOutputAndLeavesIt() throws {
        let directory = try TemporaryDirectory()
        let plain = try makePlaintextDatabase(in: directory)
        let out = try write("keep me", to: directory.path("out.sqlite"))

        let result = try Tool.run(["encrypt", plain, out], environment: passphraseEnvironment())
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("--replace"), "\(result)")
        #expect(try fileBytes(out) == Data("keep me".utf8))

        let replaced = try Tool.run(["encrypt", plain, out, "--replace"], environment: passphraseEnvironment())
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try SQLCipherShell.playerCount(out, keyPragma(Secrets.right)) == 2)
    }

    @Test func encryptRefusesAnEncryptedInput() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let result = try Tool.run(["encrypt", path, directory.path("out.sqlite")], environment: passphraseEnvironment())
        #expect(result.status == 4, "\(result)")
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func decryptRefusesWithoutPlaintextOK() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let result = try Tool.run(["decrypt", path, directory.path("clear.sqlite")], environment: passphraseEnvironment())
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("--plaintext-ok"), "\(result)")
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func decryptWritesAnOwnerOnlyPlaintextCopy() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, rows: 5)
        let before = try FileSnapshot.database(path)
        let out = directory.path("clear.sqlite")

        let result = try Tool.run(["decrypt", path, out, "--plaintext-ok"], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        expectNoSecret(in: result)
        #expect(try isPlaintextSQLite(out))
        #expect(try SQLCipherShell.playerCount(out, "") == 5)
        let permissions = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)
        expectUnchanged(since: before)
    }

    @Test func decryptWithAWrongPassphraseWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(
            ["decrypt", path, directory.path("clear.sqlite"), "--plaintext-ok"],
            environment: passphraseEnvironment(Secrets.wrong))
        #expect(result.status == 3, "\(result)")
        expectNoSecret(in: result)
        expectUnchanged(since: before)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }
}
