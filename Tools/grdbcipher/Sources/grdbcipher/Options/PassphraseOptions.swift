import ArgumentParser
import Foundation
import GRDBCipher

/// The key of the encrypted side: `--passphrase-file`, `GRDBCIPHER_PASSPHRASE`, or a prompt.
struct PassphraseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file whose first line is the passphrase (- for standard input). "
                + "Default: GRDBCIPHER_PASSPHRASE, else a prompt.",
            valueName: "path"))
    var passphraseFile: String?

    @Flag(help: "The passphrase source holds a raw key in hex: 64 digits, or 96 with the file's salt (x'...' accepted).")
    var rawKey = false

    /// The key of the existing database at `path`: its envelope's data key
    /// when it has an envelope (`<path>.envelope`), no passphrase is given
    /// (`--passphrase-file`, `GRDBCIPHER_PASSPHRASE`), and a key-encryption
    /// key is (`GRDBCIPHER_KEK_FILE`, `GRDBCIPHER_KEK_COMMAND`); else
    /// ``key(prompt:confirm:)``.
    ///
    /// - throws: A ``ToolError``: the envelope does not open, or no key is given.
    func key(forDatabaseAt path: String) throws -> DatabaseKey {
        if let kek = try envelopeKeyEncryptionKey(forDatabaseAt: path) {
            return try KeyEncryptionKeySource.dataKey(forDatabaseAt: path, keyEncryptionKey: kek)
        }
        return try key()
    }

    /// The key-encryption key that opens the envelope of the database at
    /// `path`, when the database has an envelope and the caller gave a
    /// key-encryption key and no passphrase.
    func envelopeKeyEncryptionKey(forDatabaseAt path: String) throws -> KeyEncryptionKey? {
        let environment = ProcessInfo.processInfo.environment
        guard passphraseFile == nil, !rawKey, environment[Passphrase.environmentVariable] == nil,
              environment[KeyEncryptionKeySource.fileVariable] != nil || environment[KeyEncryptionKeySource.commandVariable] != nil,
              FileManager.default.fileExists(atPath: DatabaseEnvelope.path(forDatabaseAt: path))
        else { return nil }
        return try KeyEncryptionKeySource.current()
    }

    /// The key, from the first available source.
    ///
    /// - parameter confirm: Whether a prompt asks twice (for a new file's key).
    func key(prompt: String = "Passphrase", confirm: Bool = false) throws -> DatabaseKey {
        try Passphrase.key(
            from: Passphrase.source(
                file: passphraseFile, environment: Passphrase.environmentVariable,
                prompt: rawKey ? "Raw key (hex)" : prompt, confirm: confirm),
            isRawKey: rawKey)
    }
}

/// The new key of `rekey` and `export`: `--new-passphrase-file` or `GRDBCIPHER_NEW_PASSPHRASE`.
struct NewPassphraseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file whose first line is the new passphrase (- for standard input, after the current "
                + "passphrase's line when both come from it). Default: GRDBCIPHER_NEW_PASSPHRASE.",
            valueName: "path"))
    var newPassphraseFile: String?

    @Flag(help: "The new passphrase source holds a raw key in hex, like --raw-key.")
    var newRawKey = false

    /// Whether a new passphrase is given without asking for it.
    var isGiven: Bool {
        newPassphraseFile != nil || Passphrase.hasEnvironmentValue(Passphrase.newEnvironmentVariable)
    }

    /// The new key, from the first available source; a prompt asks twice.
    func key() throws -> DatabaseKey {
        try Passphrase.key(
            from: Passphrase.source(
                file: newPassphraseFile, environment: Passphrase.newEnvironmentVariable,
                prompt: newRawKey ? "New raw key (hex)" : "New passphrase", confirm: true),
            isRawKey: newRawKey)
    }
}
