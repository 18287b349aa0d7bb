import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher rekey FILE`: a new passphrase or new cipher settings, in place or into a new file.
struct RekeyCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Change the passphrase or the cipher settings, in place or into a new file.",
        discussion: """
            The new passphrase comes from --new-passphrase-file, GRDBCIPHER_NEW_PASSPHRASE, or a prompt \
            that asks twice; --keep-passphrase changes the settings only. Cipher settings options give the \
            new settings; the others stay as FILE has them.

            In place, a passphrase change re-encrypts every page in one transaction (SQLCipher's rekey, \
            checked by GRDBCipher): FILE is all old key or all new key. A settings change exports a \
            checked copy beside FILE and renames it over FILE, holding FILE's exclusive lock from before \
            the copy until after the rename: it waits up to 5 seconds for other connections, and fails \
            (FILE unchanged) if another process keeps FILE open in WAL mode or in a transaction. A \
            process that has FILE open, idle, in rollback-journal mode cannot be seen: its next statement \
            fails ("file is not a database") instead of writing into the replaced file. A symbolic link \
            is followed (the file it points to is re-keyed, the link stays); a FILE with several hard \
            links is refused for a settings change (use --output). With --output, FILE is not modified. \
            A failed rekey leaves FILE readable with its old passphrase and settings.

            An enveloped database (FILE.envelope) is not re-keyed in place: use `envelope rotate-data-key` \
            or `envelope rewrap`. With --output, it opens with GRDBCIPHER_KEK_FILE or GRDBCIPHER_KEK_COMMAND \
            and the copy, under the new passphrase, has no envelope.
            """)

    @Argument(help: "The encrypted database file.")
    var file: String

    @Option(help: ArgumentHelp("Write the re-keyed database to this file instead, leaving FILE as it is.", valueName: "path"))
    var output: String?

    @Flag(help: "Keep the current passphrase (change cipher settings only).")
    var keepPassphrase = false

    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var newPassphrase: NewPassphraseOptions
    @OptionGroup(title: "New cipher settings") var cipher: CipherSettingsOptions
    @OptionGroup(title: "Cipher settings of FILE") var source: SourceCipherSettingsOptions
    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        if keepPassphrase && newPassphrase.newPassphraseFile != nil {
            throw ValidationError("--keep-passphrase and --new-passphrase-file contradict each other")
        }
        if keepPassphrase && cipher.values.isEmpty {
            throw ValidationError("nothing to change: --keep-passphrase needs new cipher settings")
        }
        if outputOptions.replace && output == nil {
            throw ValidationError("--replace applies to --output only")
        }
    }

    func execute() throws {
        let input = try InputFile(file)
        try input.requireEncrypted("use encrypt to write an encrypted copy of a plaintext database")
        let destination = try output.map { try OutputFile($0, replace: outputOptions.replace, input: file) }
        if destination == nil {
            try input.requireNoEnvelope(
                command: "a rekey",
                advice: "change its data key with `grdbcipher envelope rotate-data-key`, its key-encryption key with "
                    + "`grdbcipher envelope rewrap`, or write a copy with --output")
        } else if keepPassphrase, input.hasEnvelope {
            throw ToolError(
                .usage,
                "--keep-passphrase would write a copy of an enveloped database under its data key and without "
                    + "its envelope: give a new passphrase, or use `grdbcipher export` for a copy with its envelope")
        }
        let key = try passphrase.key(forDatabaseAt: input.path)
        let access = try DatabaseAccess.find(input, key: key, given: source.values)
        let newKey = keepPassphrase ? key : try newPassphrase.key()
        let settings = cipher.values.applied(to: access.settings)

        if let destination {
            let queue = try access.openQueue(readonly: false)
            try ExportRunner.export(
                from: queue, to: destination, encryption: .encrypted(key: newKey, settings: settings),
                bar: progress.makeBar(label: "rekey"))
            try queue.close()
            Diagnostics.note("re-keyed \(file) into \(destination.path) (\(SettingsText.describe(settings)))")
        } else if settings == access.settings {
            try changeKeyInPlace(access, to: newKey)
            Diagnostics.note("re-keyed \(file) in place")
        } else {
            try exportInPlace(access, newKey: newKey, settings: settings)
            Diagnostics.note("re-keyed \(file) in place (\(SettingsText.describe(settings)))")
        }
    }

    /// SQLCipher's rekey through the library. The bar follows the journal or
    /// WAL that the re-encryption writes, against the size of the file.
    private func changeKeyInPlace(_ access: DatabaseAccess, to newKey: DatabaseKey) throws {
        let queue = try access.openQueue(readonly: false)
        let path = access.path
        let monitor = FileGrowthMonitor(
            bar: progress.makeBar(label: "rekey"), expectedBytes: FileGrowthMonitor.size(of: path)) {
            FileGrowthMonitor.size(of: path + "-journal") + FileGrowthMonitor.size(of: path + "-wal")
        }
        do {
            try queue.changeKey(newKey)
            try queue.close()
            monitor.stop(succeeded: true)
        } catch {
            monitor.stop(succeeded: false)
            throw error
        }
    }

    /// A checked copy with the new key and settings beside the real file,
    /// renamed over it under its exclusive lock: the library's
    /// `DatabaseFile.reencrypt`. The bar follows the copy.
    private func exportInPlace(_ access: DatabaseAccess, newKey: DatabaseKey, settings: CipherSettings) throws {
        guard let key = access.key else { throw ToolError(.refused, "\(file) is not encrypted") }
        let target = try InPlaceFile(file, command: "a settings change", advice: "write a new file with --output instead")
        // Temporary files of rekeys killed before this tool used the library's re-encryption.
        AbandonedTemporaryFiles.remove(besides: target.path, kind: "rekey")
        try ExportRunner.withMonitor(
            bar: progress.makeBar(label: "rekey"), expectedBytes: FileGrowthMonitor.size(of: target.path),
            folder: target.folder, name: target.name)
        {
            try DatabaseFile.reencrypt(
                atPath: target.path, key: key, settings: access.settings, newKey: newKey, newSettings: settings)
        }
    }
}
