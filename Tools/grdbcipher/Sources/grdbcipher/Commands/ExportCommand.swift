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

            An enveloped database (FILE.envelope) opens with GRDBCIPHER_KEK_FILE or GRDBCIPHER_KEK_COMMAND. \
            Its copy keeps the data key and gets a copy of the envelope (OUT.envelope), so that the same \
            key-encryption key opens it; with a new passphrase, the copy has no envelope. Other cipher \
            settings need a new passphrase: the envelope is bound to the file as it is.
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
        if let kek = try passphrase.envelopeKeyEncryptionKey(forDatabaseAt: input.path), !newPassphrase.isGiven {
            try exportWithEnvelope(input, to: destination, keyEncryptionKey: kek)
            return
        }
        let key = try passphrase.key(forDatabaseAt: input.path)
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

    /// The copy of an enveloped database under the same data key, with a
    /// copy of its envelope beside it (the library's `exportWithEnvelope`).
    private func exportWithEnvelope(
        _ input: InputFile, to destination: OutputFile, keyEncryptionKey kek: KeyEncryptionKey) throws
    {
        guard cipher.values.isEmpty else {
            throw ToolError(
                .usage,
                "other cipher settings for an enveloped database need a new passphrase for the copy "
                    + "(--new-passphrase-file or GRDBCIPHER_NEW_PASSPHRASE): its envelope is bound to the file as it is")
        }
        guard !output.replace else {
            throw ToolError(.usage, "--replace is not available for an enveloped database: remove \(out) and its envelope first")
        }
        let key = try KeyEncryptionKeySource.dataKey(forDatabaseAt: input.path, keyEncryptionKey: kek)
        let access = try DatabaseAccess.find(input, key: key, given: source.values)
        let queue = try access.openQueue(readonly: false)
        defer { try? queue.close() }
        do {
            try ExportRunner.run(from: queue, to: destination, bar: progress.makeBar(label: "export")) {
                try queue.exportWithEnvelope(to: destination.path, keyEncryptionKey: kek)
            }
        } catch let error as DatabaseEnvelopeError {
            throw KeyEncryptionKeySource.toolError(error)
        }
        Diagnostics.note("exported \(file) into \(out), with its envelope \(DatabaseEnvelope.path(forDatabaseAt: out))")
    }
}
