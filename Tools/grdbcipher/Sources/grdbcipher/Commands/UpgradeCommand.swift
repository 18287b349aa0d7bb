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
            No other process may use FILE meanwhile.
            """)

    @Argument(help: "The encrypted database file.")
    var file: String

    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var progress: ProgressOptions

    func execute() throws {
        let input = try InputFile(file)
        try input.requireEncrypted("use encrypt to write an encrypted copy")
        let key = try passphrase.key()
        let folder = (file as NSString).deletingLastPathComponent
        let outcome = try ExportRunner.withMonitor(
            bar: progress.makeBar(label: "upgrade"), expectedBytes: input.size,
            folder: folder.isEmpty ? "." : folder, name: (file as NSString).lastPathComponent)
        {
            try DatabaseFile.upgradeToSQLCipher4(atPath: file, key: key)
        }
        switch outcome {
        case .alreadyCurrent:
            Diagnostics.note("\(file) already uses SQLCipher 4's defaults: unchanged")
        case let .upgraded(compatibility):
            Diagnostics.note("upgraded \(file) from SQLCipher \(compatibility) to SQLCipher 4's defaults")
        }
    }
}
