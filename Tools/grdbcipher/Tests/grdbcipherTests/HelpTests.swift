import Foundation
import Testing

@Suite struct HelpTests {
    static let commands = ["info", "verify", "encrypt", "decrypt", "rekey", "upgrade", "backup", "export", "sql"]

    @Test func theToolListsEveryCommandAndTheExitStatuses() throws {
        let result = try Tool.run(["--help"])
        #expect(result.status == 0, "\(result)")
        for command in Self.commands {
            #expect(result.stdout.contains(command), "\(command) is missing from --help")
        }
        #expect(result.stdout.contains("GRDBCIPHER_PASSPHRASE"))
        #expect(result.stdout.contains("Exit status"))
    }

    @Test(arguments: commands)
    func everyCommandHasHelp(_ command: String) throws {
        let result = try Tool.run([command, "--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("USAGE: grdbcipher \(command)"), "\(result)")
        #expect(result.stdout.contains("--passphrase-file"), "\(result)")
    }

    @Test func versionNamesTheLinkedSQLCipher() throws {
        let result = try Tool.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("SQLCipher 4."), "\(result)")
    }

    @Test func anUnknownOptionIsAUsageError() throws {
        let result = try Tool.run(["info", "--no-such-option", "x"])
        #expect(result.status == 64, "\(result)")
    }

    @Test func aMissingArgumentIsAUsageError() throws {
        let result = try Tool.run(["encrypt", "only-one"])
        #expect(result.status == 64, "\(result)")
    }

    @Test func aBadCipherSettingIsAUsageError() throws {
        let result = try Tool.run(["info", "x", "--page-size", "1000"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("page-size"), "\(result)")
    }
}
