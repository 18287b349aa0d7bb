import Foundation
import GRDBCipherTesting
import Testing

/// In-place commands on a path that is a symbolic link, or a file with
/// several hard links: the real file changes, or nothing does.
@Suite struct FileLinkTests {
    /// `data/db.sqlite`, by the shell, and `link.sqlite` pointing to it with a relative path.
    private func linkedDatabase(in directory: TemporaryDirectory, settings: String = "") throws -> (real: String, link: String) {
        try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: false)
        let real = try makeShellDatabase(in: directory, named: "data/db.sqlite", settings: settings)
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "data/db.sqlite")
        return (real, link)
    }

    private func expectLink(_ link: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link)
        #expect(destination == "data/db.sqlite", "the link must still point to the database", sourceLocation: sourceLocation)
    }

    @Test func aSettingsChangeThroughASymbolicLinkRekeysTheRealFile() throws {
        let directory = try TemporaryDirectory()
        let (real, link) = try linkedDatabase(in: directory)

        let result = try Tool.run(["rekey", link, "--kdf-iterations", "20000"], environment: passphraseEnvironment(new: Secrets.new))
        #expect(result.status == 0, "\(result)")
        try expectLink(link)
        #expect(try SQLCipherShell.playerCount(real, keyPragma(Secrets.new) + "\nPRAGMA kdf_iter = 20000;") == 3)
        #expect(throws: EncryptionCheck.Failure.self) { try SQLCipherShell.playerCount(real, keyPragma(Secrets.right)) }
        expectDirectory(directory.path("data"), holdsExactly: ["db.sqlite"])
        expectDirectory(directory.url.path, holdsExactly: ["data", "link.sqlite"])
    }

    @Test func anUpgradeThroughASymbolicLinkUpgradesTheRealFile() throws {
        let directory = try TemporaryDirectory()
        let (real, link) = try linkedDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3;")

        let result = try Tool.run(["upgrade", link], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("from SQLCipher 3"), "\(result)")
        try expectLink(link)
        #expect(try SQLCipherShell.playerCount(real, keyPragma(Secrets.right)) == 3)
        expectDirectory(directory.path("data"), holdsExactly: ["db.sqlite"])
    }

    @Test func aSettingsChangeOfAHardLinkedFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let other = directory.path("other.sqlite")
        try FileManager.default.linkItem(atPath: path, toPath: other)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(
            ["rekey", path, "--keep-passphrase", "--kdf-iterations", "20000"], environment: passphraseEnvironment())
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("2 hard links"), "\(result)")
        #expect(result.stderr.contains("--output"), "the message says what to do instead: \(result)")
        expectUnchanged(since: before)
        #expect(try fileBytes(other) == before.files["db.sqlite"])
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite", "other.sqlite"])
    }

    @Test func anUpgradeOfAHardLinkedFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3;")
        try FileManager.default.linkItem(atPath: path, toPath: directory.path("other.sqlite"))
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(["upgrade", path], environment: passphraseEnvironment())
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("hard links"), "\(result)")
        expectUnchanged(since: before)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite", "other.sqlite"])
    }

    @Test func aPassphraseChangeOfAHardLinkedFileRekeysEveryName() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let other = directory.path("other.sqlite")
        try FileManager.default.linkItem(atPath: path, toPath: other)

        // SQLCipher's rekey writes the file in place: every name sees it.
        let result = try Tool.run(["rekey", path], environment: passphraseEnvironment(new: Secrets.new))
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(other, keyPragma(Secrets.new)) == 3)
    }
}
