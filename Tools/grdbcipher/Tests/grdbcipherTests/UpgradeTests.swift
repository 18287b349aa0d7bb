import Foundation
import GRDBCipherTesting
import Testing

@Suite struct UpgradeTests {
    @Test func upgradesAnSQLCipher3FileOfTheShell() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3;")

        let result = try Tool.run(["upgrade", path], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("from SQLCipher 3"), "\(result)")
        expectNoSecret(in: result)
        #expect(try SQLCipherShell.playerCount(path, keyPragma(Secrets.right)) == 3)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }

    @Test func aCurrentFileIsLeftByteForByte() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(["upgrade", path], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("already"), "\(result)")
        expectUnchanged(since: before)
    }

    @Test func aWrongPassphraseIsStatus3AndLeavesTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory, settings: "PRAGMA cipher_compatibility = 3;")
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(["upgrade", path], environment: passphraseEnvironment(Secrets.wrong))
        #expect(result.status == 3, "\(result)")
        expectNoSecret(in: result)
        expectUnchanged(since: before)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }
}
