import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher encrypt PLAIN OUT`: an encrypted copy of a plaintext database.
struct EncryptCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Write an encrypted copy of a plaintext database.",
        discussion: """
            The copy (schema, rows, user_version, application_id) is encrypted with the passphrase from \
            --passphrase-file, GRDBCIPHER_PASSPHRASE, or a prompt that asks twice, and with SQLCipher 4's \
            defaults unless cipher settings are given (--compatibility 3 writes a file SQLCipher 3 opens). \
            It is written beside OUT, checked with the key, then moved into place. PLAIN is not modified.
            """)

    @Argument(help: "The plaintext database file.")
    var plain: String

    @Argument(help: "The encrypted file to write.")
    var out: String

    @OptionGroup var output: OutputOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup(title: "Cipher settings of the encrypted copy") var cipher: CipherSettingsOptions
    @OptionGroup var progress: ProgressOptions

    func execute() throws {
        let input = try InputFile(plain)
        guard !input.isEncrypted else {
            throw ToolError(.refused, "\(plain) is not a plaintext SQLite database (it is encrypted, or not a database): "
                + "use rekey or export to re-encrypt an encrypted file")
        }
        let destination = try OutputFile(out, replace: output.replace, input: plain)
        let access = try DatabaseAccess.find(input, key: nil, given: CipherSettingsValues())
        let key = try passphrase.key(prompt: "Passphrase for \(out)", confirm: true)
        let settings = cipher.values.applied(to: CipherSettings())
        let queue = try access.openQueue(readonly: false)
        try ExportRunner.export(
            from: queue, to: destination, encryption: .encrypted(key: key, settings: settings),
            bar: progress.makeBar(label: "encrypt"))
        try queue.close()
        Diagnostics.note("encrypted \(plain) into \(out) (\(SettingsText.describe(settings)))")
    }
}
