import Foundation
import GRDBCipherTesting
import Testing

@Suite struct InfoTests {
    @Test func describesAFileOfTheSQLCipherShell() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(["info", path], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        let fields = infoFields(result.stdout)
        #expect(fields["encrypted"] == "yes", "\(result)")
        #expect(fields["opens"] == "yes", "\(result)")
        #expect(fields["cipher settings"] == "SQLCipher 4 defaults", "\(result)")
        #expect(fields["kdf iterations"] == "256000", "\(result)")
        #expect(fields["page size"] == "4096", "\(result)")
        #expect(fields["journal mode"] == "delete", "\(result)")
        #expect(fields["user version"] == "7", "\(result)")
        #expect(fields["tables"] == "1", "\(result)")
        expectNoSecret(in: result)
        expectUnchanged(since: before)
    }

    @Test func detectsSQLCipher3SettingsAsJSON() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3;")

        let result = try Tool.run(["info", path, "--json"], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["sqlcipherCompatibility"] as? Int == 3, "\(result)")
        #expect(object?["cipherPageSize"] as? Int == 1024)
        #expect(object?["kdfIterations"] as? Int == 64000)
        #expect(object?["opens"] as? Bool == true)
        #expect(object?["encrypted"] as? Bool == true)
    }

    @Test func opensWithGivenSettings() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA kdf_iter = 12345;")

        let detected = try Tool.run(["info", path], environment: passphraseEnvironment())
        #expect(detected.status == 3, "\(detected)")

        let given = try Tool.run(["info", path, "--kdf-iterations", "12345"], environment: passphraseEnvironment())
        #expect(given.status == 0, "\(given)")
        #expect(infoFields(given.stdout)["cipher settings"] == "as given (kdf iterations 12345)", "\(given)")
    }

    @Test func aWrongPassphraseSaysSoWithStatus3AndLeavesTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(["info", path], environment: passphraseEnvironment(Secrets.wrong))
        #expect(result.status == 3, "\(result)")
        #expect(infoFields(result.stdout)["opens"] == "no", "\(result)")
        #expect(result.stderr.contains("wrong passphrase"), "\(result)")
        expectNoSecret(in: result)
        expectUnchanged(since: before)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func aPlaintextFileNeedsNoPassphrase() throws {
        let directory = try TemporaryDirectory()
        let path = try makePlaintextDatabase(in: directory)

        let result = try Tool.run(["info", path])
        #expect(result.status == 0, "\(result)")
        #expect(infoFields(result.stdout)["encrypted"] == "no", "\(result)")
        #expect(infoFields(result.stdout)["cipher settings"] == "none (plaintext)", "\(result)")
    }

    @Test func aMissingFileIsStatus5AndIsNotCreated() throws {
        let directory = try TemporaryDirectory()
        let result = try Tool.run(["info", directory.path("missing.sqlite")], environment: passphraseEnvironment())
        #expect(result.status == 5, "\(result)")
        expectDirectory(directory.url.path, holdsExactly: [])
    }

    @Test func noPassphraseSourceIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        // No variable, no file, and standard input is a pipe: no prompt.
        let result = try Tool.run(["info", path])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("GRDBCIPHER_PASSPHRASE"), "\(result)")
    }
}
