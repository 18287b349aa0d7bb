import Foundation
import GRDBCipherTesting
import Testing

@Suite struct PassphraseTests {
    @Test func aPassphraseFileLosesItsLineBreak() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let file = try write(Secrets.right + "\r\n", to: directory.path("passphrase"))

        let result = try Tool.run(["verify", path, "--passphrase-file", file])
        #expect(result.status == 0, "\(result)")
    }

    @Test func theFileWinsOverTheVariable() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let file = try write(Secrets.right, to: directory.path("passphrase"))

        let result = try Tool.run(
            ["verify", path, "--passphrase-file", file], environment: passphraseEnvironment(Secrets.wrong))
        #expect(result.status == 0, "\(result)")
    }

    @Test func standardInput() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)

        let right = try Tool.run(["sql", path, "SELECT COUNT(*) FROM player", "--passphrase-file", "-",
                                  "--format", "list"], stdin: Secrets.right + "\n")
        #expect(right.status == 0, "\(right)")
        #expect(right.stdout == "3\n", "\(right)")

        let wrong = try Tool.run(["sql", path, "SELECT 1", "--passphrase-file", "-"], stdin: Secrets.wrong + "\n")
        #expect(wrong.status == 3, "\(wrong)")
        expectNoSecret(in: wrong)
    }

    @Test func anEmptyPassphraseIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let result = try Tool.run(["verify", path], environment: passphraseEnvironment(""))
        #expect(result.status == 64, "\(result)")
    }

    @Test func anUnreadablePassphraseFileIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let result = try Tool.run(["verify", path, "--passphrase-file", directory.path("missing")])
        #expect(result.status == 64, "\(result)")
    }

    @Test(arguments: [
        ["info", "DB"], ["verify", "DB"], ["decrypt", "DB", "OUT", "--plaintext-ok"], ["rekey", "DB"],
        ["rekey", "DB", "--output", "OUT"], ["upgrade", "DB"], ["backup", "DB", "OUT"], ["export", "DB", "OUT"],
        ["sql", "DB", "SELECT 1"],
    ])
    func aWrongPassphraseNeverShowsAndChangesNothing(_ template: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)
        let arguments = template.map { $0 == "DB" ? path : $0 == "OUT" ? directory.path("out.sqlite") : $0 }

        let result = try Tool.run(arguments, environment: passphraseEnvironment(Secrets.wrong, new: Secrets.new))
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("does not open") || result.stderr.contains("wrong"), "\(result)")
        expectNoSecret(in: result)
        expectUnchanged(since: before)
        expectDirectory(directory.url.path, holdsExactly: ["db.sqlite"])
    }
}
