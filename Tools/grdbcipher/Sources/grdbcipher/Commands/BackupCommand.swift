import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher backup FILE OUT`: an online, page-by-page encrypted copy.
struct BackupCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy an encrypted database, online, into an encrypted file with the same key and settings.",
        discussion: """
            Uses SQLite's online backup: FILE is opened read-only and read in one transaction, so other \
            processes keep reading it, and keep writing it in WAL mode (their later writes are not in the \
            copy; in rollback-journal mode they wait for the copy). The copy is written beside OUT, checked \
            with the key, then moved into place: created with link(2), so that a file that appeared at OUT \
            meanwhile is never overwritten, or with --replace renamed over OUT (a symbolic link is \
            followed; an OUT with several hard links, or open in another process, is refused). A killed \
            backup's temporary files (.OUT.backup-p<pid>-...) are removed by the next backup to OUT. For \
            another key or other settings, use export.
            """)

    @Argument(help: "The encrypted database file.")
    var file: String

    @Argument(help: "The encrypted copy to write.")
    var out: String

    @Option(help: ArgumentHelp("Pages copied per step (the progress bar moves after each).", valueName: "count"))
    var pagesPerStep = 1024

    @OptionGroup var output: OutputOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup(title: "Cipher settings of the file") var cipher: CipherSettingsOptions
    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        guard pagesPerStep > 0, pagesPerStep <= Int(CInt.max) else {
            throw ValidationError("--pages-per-step must be from 1 to \(CInt.max)")
        }
    }

    func execute() throws {
        let input = try InputFile(file)
        try input.requireEncrypted("backup writes encrypted copies: use encrypt")
        let destination = try OutputFile(out, replace: output.replace, input: file)
        if let kek = try passphrase.envelopeKeyEncryptionKey(forDatabaseAt: input.path) {
            try backupWithEnvelope(input, to: destination, keyEncryptionKey: kek)
            return
        }
        let access = try DatabaseAccess.find(input, key: passphrase.key(), given: cipher.values)
        // What a killed backup to the same file left behind goes first.
        AbandonedTemporaryFiles.remove(besides: destination.placement, kind: "backup")
        let temporary = OutputFile(unchecked: AbandonedTemporaryFiles.path(besides: destination.placement, kind: "backup"))
        let bar = progress.makeBar(label: "backup")
        do {
            let source = try access.openQueue(readonly: true)
            let copy = try DatabaseQueue(path: temporary.path, configuration: access.configuration(readonly: false))
            try source.backup(to: copy, pagesPerStep: CInt(pagesPerStep)) { step in
                let fraction = step.totalPageCount > 0 ? Double(step.completedPageCount) / Double(step.totalPageCount) : 1
                bar.update(fraction: fraction, detail: "\(step.completedPageCount)/\(step.totalPageCount) pages")
            }
            try copy.close()
            try source.close()
            try DatabaseAccess(
                path: temporary.path, key: access.key, settings: access.settings, detectedCompatibility: nil
            ).check()
            try destination.moveIntoPlace(from: temporary)
            bar.finish()
        } catch {
            bar.finish(detail: "failed")
            temporary.removeWithSideFiles()
            throw error
        }
        Diagnostics.note("backed up \(file) into \(out)")
    }

    /// The backup of an enveloped database: the copy under the same data
    /// key, and a copy of the envelope beside it, so that the same
    /// key-encryption key opens both (the library's `backupWithEnvelope`).
    private func backupWithEnvelope(
        _ input: InputFile, to destination: OutputFile, keyEncryptionKey kek: KeyEncryptionKey) throws
    {
        guard !output.replace else {
            throw ToolError(.usage, "--replace is not available for an enveloped database: remove \(out) and its envelope first")
        }
        let key = try KeyEncryptionKeySource.dataKey(forDatabaseAt: input.path, keyEncryptionKey: kek)
        let access = try DatabaseAccess.find(input, key: key, given: cipher.values)
        let bar = progress.makeBar(label: "backup")
        do {
            let source = try access.openQueue(readonly: true)
            defer { try? source.close() }
            try source.backupWithEnvelope(to: destination.placement, keyEncryptionKey: kek, pagesPerStep: CInt(pagesPerStep)) { step in
                let fraction = step.totalPageCount > 0 ? Double(step.completedPageCount) / Double(step.totalPageCount) : 1
                bar.update(fraction: fraction, detail: "\(step.completedPageCount)/\(step.totalPageCount) pages")
            }
            bar.finish()
        } catch let error as DatabaseEnvelopeError {
            bar.finish(detail: "failed")
            throw KeyEncryptionKeySource.toolError(error)
        } catch {
            bar.finish(detail: "failed")
            throw error
        }
        Diagnostics.note("backed up \(file) into \(out), with its envelope \(DatabaseEnvelope.path(forDatabaseAt: out))")
    }
}
