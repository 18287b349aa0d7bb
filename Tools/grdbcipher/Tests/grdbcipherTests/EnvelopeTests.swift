import Foundation
import Testing
import GRDBCipherTesting

/// `grdbcipher envelope`: init, show, rewrap, rotate-data-key, with keys from
/// the environment's files and commands only.
@Suite struct EnvelopeTests {
    private func kekFiles(_ directory: TemporaryDirectory) throws -> (current: String, new: String) {
        let current = directory.path("kek")
        let new = directory.path("new-kek")
        try "\(Secrets.right)\n".write(toFile: current, atomically: true, encoding: .utf8)
        try "\(Secrets.new)\n".write(toFile: new, atomically: true, encoding: .utf8)
        return (current, new)
    }

    /// The reading commands open an enveloped database with the
    /// key-encryption key alone, and `backup` carries the envelope.
    @Test func readingCommandsAndBackupOpenAnEnvelopedDatabase() throws {
        let directory = try TemporaryDirectory()
        let (current, new) = try kekFiles(directory)
        let path = directory.path("db.sqlite")
        let environment = ["GRDBCIPHER_KEK_FILE": current]
        let created = try Tool.run(["envelope", "init", path], environment: environment)
        #expect(created.status == 0, "\(created)")
        for statement in ["CREATE TABLE t(x)", "INSERT INTO t VALUES (42)"] {
            let written = try Tool.run(["sql", path, statement], environment: environment)
            #expect(written.status == 0, "\(written)")
        }

        let info = try Tool.run(["info", path], environment: environment)
        #expect(info.status == 0, "\(info)")
        let verify = try Tool.run(["verify", path], environment: environment)
        #expect(verify.status == 0, "\(verify)")
        let read = try Tool.run(["sql", path, "SELECT x FROM t", "--readonly"], environment: environment)
        #expect(read.status == 0, "\(read)")
        #expect(read.stdout.contains("42"), "\(read)")

        let out = directory.path("backup.sqlite")
        let backup = try Tool.run(["backup", path, out], environment: environment)
        #expect(backup.status == 0, "\(backup)")
        #expect(FileManager.default.fileExists(atPath: out + ".envelope"))
        let copied = try Tool.run(["sql", out, "SELECT x FROM t", "--readonly"], environment: environment)
        #expect(copied.stdout.contains("42"), "\(copied)")

        // Another key-encryption key does not open it, with the envelope's error.
        let wrong = try Tool.run(["info", path], environment: ["GRDBCIPHER_KEK_FILE": new])
        #expect(wrong.status == 3, "\(wrong)")
        expectNoSecret(in: wrong)
    }

    /// `export` and `decrypt` open an enveloped database with the
    /// key-encryption key alone (`export` carries the envelope unless the
    /// copy gets a new passphrase); `rekey` and `upgrade` refuse to change it
    /// in place, which would leave it under a key that no envelope holds.
    @Test func exportDecryptRekeyAndUpgradeOfAnEnvelopedDatabase() throws {
        let directory = try TemporaryDirectory()
        let (current, _) = try kekFiles(directory)
        let path = directory.path("db.sqlite")
        let environment = ["GRDBCIPHER_KEK_FILE": current]
        #expect(try Tool.run(["envelope", "init", path], environment: environment).status == 0)
        for statement in ["CREATE TABLE t(x)", "INSERT INTO t VALUES (42)"] {
            #expect(try Tool.run(["sql", path, statement], environment: environment).status == 0)
        }
        let before = try fileBytes(path)
        let envelopeBefore = try fileBytes(path + ".envelope")

        let exported = directory.path("export.sqlite")
        let export = try Tool.run(["export", path, exported], environment: environment)
        #expect(export.status == 0, "\(export)")
        #expect(FileManager.default.fileExists(atPath: exported + ".envelope"))
        let exportRead = try Tool.run(["sql", exported, "SELECT x FROM t", "--readonly"], environment: environment)
        #expect(exportRead.stdout.contains("42"), "\(exportRead)")

        let settingsOnly = try Tool.run(["export", path, directory.path("v3.sqlite"), "--compatibility", "3"], environment: environment)
        #expect(settingsOnly.status == 64, "\(settingsOnly)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("v3.sqlite")))

        var newPassphrase = environment
        newPassphrase["GRDBCIPHER_NEW_PASSPHRASE"] = Secrets.new
        let passphrased = directory.path("passphrased.sqlite")
        let export2 = try Tool.run(["export", path, passphrased, "--compatibility", "3"], environment: newPassphrase)
        #expect(export2.status == 0, "\(export2)")
        #expect(!FileManager.default.fileExists(atPath: passphrased + ".envelope"))
        let shell = try SQLCipherShell.run(passphrased, "PRAGMA key = '\(Secrets.new)'; PRAGMA cipher_compatibility = 3; SELECT x FROM t;")
        #expect(shell.contains("42"), "\(shell)")

        let plain = directory.path("plain.sqlite")
        let decrypt = try Tool.run(["decrypt", path, plain, "--plaintext-ok"], environment: environment)
        #expect(decrypt.status == 0, "\(decrypt)")
        #expect(try isPlaintextSQLite(plain))

        let rekey = try Tool.run(["rekey", path], environment: newPassphrase)
        #expect(rekey.status == 4, "\(rekey)")
        #expect(rekey.stderr.contains("envelope rotate-data-key"), "\(rekey)")
        let rekeyCopy = directory.path("rekeyed.sqlite")
        let rekeyed = try Tool.run(["rekey", path, "--output", rekeyCopy], environment: newPassphrase)
        #expect(rekeyed.status == 0, "\(rekeyed)")
        let rekeyedRead = try SQLCipherShell.run(rekeyCopy, "PRAGMA key = '\(Secrets.new)'; SELECT x FROM t;")
        #expect(rekeyedRead.contains("42"), "\(rekeyedRead)")
        let kept = try Tool.run(["rekey", path, "--output", directory.path("kept.sqlite"), "--keep-passphrase", "--compatibility", "3"], environment: environment)
        #expect(kept.status == 64, "\(kept)")
        let upgrade = try Tool.run(["upgrade", path], environment: environment)
        #expect(upgrade.status == 4, "\(upgrade)")

        #expect(try fileBytes(path) == before, "a refused or reading command changed the database")
        #expect(try fileBytes(path + ".envelope") == envelopeBefore)
        for result in [export, settingsOnly, export2, decrypt, rekey, rekeyed, kept, upgrade] { expectNoSecret(in: result) }
    }

    @Test func initShowRewrapAndRotateAnEnvelopedDatabase() throws {
        let directory = try TemporaryDirectory()
        let (current, new) = try kekFiles(directory)
        let path = directory.path("db.sqlite")

        let created = try Tool.run(["envelope", "init", path], environment: ["GRDBCIPHER_KEK_FILE": current])
        #expect(created.status == 0, "\(created)")
        #expect(try isPlaintextSQLite(path) == false)
        let mode = try FileManager.default.attributesOfItem(atPath: path + ".envelope")[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let shown = try Tool.run(["envelope", "show", path])
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.contains("key-encryption key: passphrase"), "\(shown)")
        #expect(shown.stdout.contains("kdf: scrypt"), "\(shown)")

        let databaseBefore = try fileBytes(path)
        let rewrapped = try Tool.run(
            ["envelope", "rewrap", path], environment: ["GRDBCIPHER_KEK_FILE": current, "GRDBCIPHER_NEW_KEK_FILE": new])
        #expect(rewrapped.status == 0, "\(rewrapped)")
        #expect(try fileBytes(path) == databaseBefore, "a rewrap changed the database")

        let wrongKey = try Tool.run(["envelope", "rotate-data-key", path], environment: ["GRDBCIPHER_KEK_FILE": current])
        #expect(wrongKey.status == 3, "\(wrongKey)")
        #expect(try fileBytes(path) == databaseBefore)

        let rotated = try Tool.run(["envelope", "rotate-data-key", path], environment: ["GRDBCIPHER_KEK_FILE": new])
        #expect(rotated.status == 0, "\(rotated)")
        #expect(try fileBytes(path) != databaseBefore)
        for result in [created, shown, rewrapped, wrongKey, rotated] { expectNoSecret(in: result) }
    }

    @Test func initEncryptsAPlaintextDatabaseAndRefusesAnEncryptedOne() throws {
        let directory = try TemporaryDirectory()
        let (current, _) = try kekFiles(directory)
        let path = directory.path("plain.sqlite")
        _ = try SQLCipherShell.run(path, "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('kept');")
        #expect(try isPlaintextSQLite(path))

        let encrypted = try Tool.run(["envelope", "init", path], environment: ["GRDBCIPHER_KEK_FILE": current])
        #expect(encrypted.status == 0, "\(encrypted)")
        #expect(try isPlaintextSQLite(path) == false)

        let again = try Tool.run(["envelope", "init", path], environment: ["GRDBCIPHER_KEK_FILE": current])
        #expect(again.status == 4, "\(again)")
    }

    @Test func keysComeOnlyFromTheEnvironmentAndBadOnesChangeNothing() throws {
        let directory = try TemporaryDirectory()
        let (current, _) = try kekFiles(directory)
        let path = directory.path("db.sqlite")
        let noKey = try Tool.run(["envelope", "init", path])
        #expect(noKey.status == 64, "\(noKey)")
        #expect(!FileManager.default.fileExists(atPath: path))

        #expect(try Tool.run(["envelope", "init", path], environment: ["GRDBCIPHER_KEK_FILE": current]).status == 0)
        let envelopeBefore = try fileBytes(path + ".envelope")
        let failing = try Tool.run(
            ["envelope", "rewrap", path],
            environment: ["GRDBCIPHER_KEK_FILE": current, "GRDBCIPHER_NEW_KEK_COMMAND": "false"])
        #expect(failing.status == 1, "\(failing)")
        #expect(try fileBytes(path + ".envelope") == envelopeBefore)

        try FileManager.default.removeItem(atPath: path + ".envelope")
        let missing = try Tool.run(["envelope", "show", path])
        #expect(missing.status == 5, "\(missing)")
        #expect(missing.stderr.contains(".envelope"), "\(missing)")
    }
}
