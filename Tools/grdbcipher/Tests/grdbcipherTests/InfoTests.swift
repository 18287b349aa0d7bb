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

    /// SQLCipher 1's settings authenticate no page: one wrong passphrase in
    /// 256 decrypts the header into one that says "WAL", and a read-only
    /// connection of SQLite alone leaves an empty -wal and a -shm beside the
    /// file. `info`, `backup` and `upgrade` try those settings last, and must
    /// leave nothing.
    @Test func aWrongPassphraseThatSQLCipher1SettingsReadAsWALLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.directory(directory.url.path)
        let wrong = try #require(try (0..<5_000).lazy.map { "wrong-\($0)" }.first {
            try Self.readOnlyShellLeavesWALFiles(path, script: keyPragma($0) + "\nPRAGMA cipher_compatibility = 1;")
        })
        expectUnchanged(since: before)

        for command in [["info", path], ["backup", path, directory.path("out.sqlite")], ["upgrade", path]] {
            let result = try Tool.run(command, environment: passphraseEnvironment(wrong))
            #expect(result.status == 3, "\(command[0]): \(result)")
            if !expectUnchanged(since: before) { Issue.record("after \(command[0])") }
        }
    }

    /// Whether the `sqlcipher` shell, read-only with `script` (the key and
    /// settings), leaves a -wal or -shm beside the database (removed again).
    private static func readOnlyShellLeavesWALFiles(_ path: String, script: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try SQLCipherShell.requiredExecutablePath())
        process.arguments = ["-batch", "-readonly", path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((script + "\nSELECT count(*) FROM sqlite_master;\n").utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let left = ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) }
        for suffix in left { try FileManager.default.removeItem(atPath: path + suffix) }
        return !left.isEmpty
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
