import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher upgrade FILE`: an SQLCipher 1–3 file to SQLCipher 4's defaults, in place.
struct UpgradeCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Upgrade a file written with SQLCipher 1, 2 or 3 defaults to SQLCipher 4's, in place.",
        discussion: """
            Keeps the passphrase, schema, rows, user_version and application_id. The upgraded copy is \
            written beside FILE, checked, synced, and renamed over FILE: a failed upgrade leaves FILE \
            as it was. A file that already uses SQLCipher 4's defaults is left unchanged (exit status 0). \
            FILE's exclusive lock is held from before the copy until after the rename: the upgrade waits \
            up to 5 seconds for other connections, and fails (FILE unchanged) if another process keeps \
            FILE open in WAL mode or in a transaction; a process that has it open, idle, in \
            rollback-journal mode fails at its next statement instead of writing into the replaced file. \
            A symbolic link is followed (the file it points to is upgraded, the link stays); a FILE with \
            several hard links is refused (export it to a new file instead). An enveloped database \
            (FILE.envelope) is refused: its envelope holds the key of the file as it is.
            """)

    @Argument(help: "The encrypted database file.")
    var file: String

    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var progress: ProgressOptions

    func execute() throws {
        let input = try InputFile(file)
        try input.requireEncrypted("use encrypt to write an encrypted copy")
        try input.requireNoEnvelope(
            command: "an upgrade",
            advice: "write an upgraded copy under a passphrase with `grdbcipher export FILE OUT --compatibility 4 --new-passphrase-file PATH`")
        let target = try InPlaceFile(
            file, command: "an upgrade",
            advice: "write an upgraded copy with `grdbcipher export FILE OUT --compatibility 4` instead")
        let key = try passphrase.key()
        let outcome = try ExportRunner.withMonitor(
            bar: progress.makeBar(label: "upgrade"), expectedBytes: input.size, folder: target.folder, name: target.name)
        {
            try DatabaseFile.upgradeToSQLCipher4(atPath: target.path, key: key)
        }
        switch outcome {
        case .alreadyCurrent:
            Diagnostics.note("\(file) already uses SQLCipher 4's defaults: unchanged")
        case let .upgraded(compatibility):
            Diagnostics.note("upgraded \(file) from SQLCipher \(compatibility) to SQLCipher 4's defaults")
        }
    }
}
