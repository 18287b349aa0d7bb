import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher export FILE OUT`: an encrypted copy, with the same or a new key and settings.
struct ExportCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an encrypted copy of an encrypted database, with the same or another key and settings.",
        discussion: """
            Copies schema, rows, user_version and application_id with sqlcipher_export, in one read \
            transaction, into a file written beside OUT, checked with its key, then moved into place. \
            The copy keeps FILE's passphrase unless --new-passphrase-file or GRDBCIPHER_NEW_PASSPHRASE \
            gives a new one, and FILE's cipher settings except those given (--compatibility 3 writes a \
            copy for SQLCipher 3). --from-... options give FILE's own settings when they are not the \
            defaults of an SQLCipher version. FILE is not modified.
            """)

    @Argument(help: "The encrypted database file.")
    var file: String

    @Argument(help: "The encrypted copy to write.")
    var out: String

    @OptionGroup var output: OutputOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var newPassphrase: NewPassphraseOptions
    @OptionGroup(title: "Cipher settings of the copy") var cipher: CipherSettingsOptions
    @OptionGroup(title: "Cipher settings of FILE") var source: SourceCipherSettingsOptions
    @OptionGroup var progress: ProgressOptions

    func execute() throws {
        let input = try InputFile(file)
        try input.requireEncrypted("use encrypt to write an encrypted copy of a plaintext database")
        let destination = try OutputFile(out, replace: output.replace, input: file)
        let key = try passphrase.key()
        let access = try DatabaseAccess.find(input, key: key, given: source.values)
        let newKey = newPassphrase.isGiven ? try newPassphrase.key() : key
        let settings = cipher.values.applied(to: access.settings)
        let queue = try access.openQueue(readonly: false)
        try ExportRunner.export(
            from: queue, to: destination, encryption: .encrypted(key: newKey, settings: settings),
            bar: progress.makeBar(label: "export"))
        try queue.close()
        let keyText = newPassphrase.isGiven ? "a new passphrase" : "the same passphrase"
        Diagnostics.note("exported \(file) into \(out) (\(keyText), \(SettingsText.describe(settings)))")
    }
}
