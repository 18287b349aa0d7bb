import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher verify FILE`: SQLCipher's page authentication check and SQLite's integrity check.
struct VerifyCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every page's authentication code and SQLite's integrity.",
        discussion: """
            Runs PRAGMA cipher_integrity_check (each page's HMAC) and PRAGMA integrity_check, read-only, \
            and prints each result. Exit status 0 when both are clean, 2 when either finds damage, 3 when \
            the file does not open (a wrong passphrase or settings, or a damaged first page). A plaintext \
            file gets SQLite's check only.
            """)

    @Argument(help: "The database file.")
    var file: String

    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup(title: "Cipher settings of the file") var cipher: CipherSettingsOptions

    func execute() throws {
        let input = try InputFile(file)
        let access = try DatabaseAccess.find(input, key: input.isEncrypted ? passphrase.key(forDatabaseAt: input.path) : nil, given: cipher.values)
        let queue = try access.openQueue(readonly: true)
        var damaged = false
        var lines: [String] = []

        if access.key != nil {
            let failures = try queue.cipherIntegrityCheck()
            if failures.isEmpty {
                lines.append("cipher integrity: ok")
            } else {
                damaged = true
                lines.append("cipher integrity: \(failures.count) page(s) failed authentication")
                lines += failures.map { "  \($0.message)" }
            }
        } else {
            lines.append("cipher integrity: not encrypted (skipped)")
        }

        do {
            let messages = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            if messages == ["ok"] {
                lines.append("integrity: ok")
            } else {
                damaged = true
                lines.append("integrity: \(messages.count) problem(s)")
                lines += messages.map { "  \($0)" }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || damaged {
            // After a page failed authentication, SQLCipher fails reads of it
            // with a generic error too.
            damaged = true
            lines.append("integrity: the check stopped on a damaged page (\(error.message ?? "corrupt"))")
        }
        try queue.close()

        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        if damaged {
            throw ToolError(.damaged, "\(file) is damaged")
        }
    }
}
