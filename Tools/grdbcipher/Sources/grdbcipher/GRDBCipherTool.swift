import ArgumentParser
import GRDBCipher

/// `grdbcipher`: inspects, checks, encrypts, decrypts, re-keys, upgrades,
/// backs up, queries and restores SQLCipher database files.
@main
struct GRDBCipherTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grdbcipher",
        abstract: "Operate on SQLCipher-encrypted database files.",
        discussion: """
            Passphrases never come from a plain argument. The key of the encrypted side comes from \
            --passphrase-file (a file, or - for standard input), else the GRDBCIPHER_PASSPHRASE \
            environment variable, else a prompt without echo when standard input is a terminal. \
            The new key of rekey and export comes from --new-passphrase-file or GRDBCIPHER_NEW_PASSPHRASE \
            (rekey also prompts).

            Exit status: 0 success; 1 the operation failed; 2 verify found damage; 3 the file does not \
            open (wrong passphrase, wrong cipher settings, or not a database); 4 refused (plaintext output \
            without --plaintext-ok, an existing output without --replace, an input of the wrong kind); \
            5 the input file is missing or unreadable; 64 bad usage or no passphrase. A failed command \
            leaves its input file unchanged.
            """,
        version: ToolVersion.description,
        subcommands: [
            InfoCommand.self, VerifyCommand.self, EncryptCommand.self, DecryptCommand.self,
            RekeyCommand.self, UpgradeCommand.self, BackupCommand.self, ExportCommand.self, SQLCommand.self,
            EnvelopeCommand.self, RestoreCommand.self, GenerationsCommand.self,
        ])
}
