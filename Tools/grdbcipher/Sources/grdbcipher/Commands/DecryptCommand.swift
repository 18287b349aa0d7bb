import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher decrypt FILE OUT --plaintext-ok`: a plaintext copy, only when asked explicitly.
struct DecryptCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Write a plaintext copy of an encrypted database (needs --plaintext-ok).",
        discussion: """
            Anyone who can read OUT can read the data: the command refuses (exit status 4) unless \
            --plaintext-ok is given. OUT is created with permissions 0600. FILE is not modified.
            """)

    @Argument(help: "The encrypted database file.")
    var file: String

    @Argument(help: "The plaintext file to write.")
    var out: String

    @Flag(help: "Confirm that writing the data unencrypted is intended.")
    var plaintextOk = false

    @OptionGroup var output: OutputOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup(title: "Cipher settings of the file") var cipher: CipherSettingsOptions
    @OptionGroup var progress: ProgressOptions

    func execute() throws {
        guard plaintextOk else {
            throw ToolError(.refused, "decrypt writes the data unencrypted: pass --plaintext-ok to confirm")
        }
        let input = try InputFile(file)
        try input.requireEncrypted("there is nothing to decrypt")
        let destination = try OutputFile(out, replace: output.replace, input: file)
        let access = try DatabaseAccess.find(input, key: passphrase.key(forDatabaseAt: input.path), given: cipher.values)
        let queue = try access.openQueue(readonly: false)
        try ExportRunner.export(
            from: queue, to: destination, encryption: .plaintext, bar: progress.makeBar(label: "decrypt"))
        try queue.close()
        Diagnostics.note("decrypted \(file) into \(out) (plaintext, mode 0600)")
    }
}
