import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher restore REPLICA OUT [--at TIME]`: rebuilds a database from its replica.
struct RestoreCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Rebuild a database from its replica, at its latest state or at a point in time.",
        discussion: """
            REPLICA is file:///path or a folder written by a DatabaseReplicator, or s3://bucket/prefix \
            (with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, and AWS_ENDPOINT_URL for a store \
            other than AWS). The output is a new file (mode 0600; an existing OUT is refused, exit 4), \
            rebuilt from the shipped pages without decrypting them, then checked with the key \
            (cipher_integrity_check and integrity_check) before it gets its name. An altered or \
            incomplete replica exits 2 and leaves no output; a wrong key exits 3. The key is the \
            database's (its passphrase, or --raw-key), from the usual sources; for an enveloped \
            database, its key-encryption key (GRDBCIPHER_KEK_FILE or GRDBCIPHER_KEK_COMMAND, with no \
            passphrase given) restores OUT and its envelope OUT.envelope, which must not exist either (unless \
            an interrupted restore left the same one). \
            After a key change, the latest state needs the new key, and an earlier time the key of then.
            """)

    @Argument(help: "The replica: file:///path, s3://bucket/prefix, or a folder.")
    var replica: String

    @Argument(help: "The output file; it must not exist.")
    var output: String

    @Option(help: ArgumentHelp("Restore the state as of this time (ISO 8601, UTC: 2026-12-01T09:30:00Z).", valueName: "time"))
    var at: String?

    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup(title: "Cipher settings of the database") var cipher: CipherSettingsOptions

    func execute() throws {
        let time = try at.map(Self.parseTime)
        if FileManager.default.fileExists(atPath: output) {
            throw ToolError(.refused, "\(output) exists: restore writes a new file")
        }
        let (replica, enveloped) = try ReplicaLocation.replica(self.replica, passphrase: passphrase)
        // An existing OUT.envelope is refused by the restore, unless an
        // interrupted restore left the very envelope it writes.
        let envelope = DatabaseEnvelope.path(forDatabaseAt: output)
        var configuration = Configuration()
        configuration.cipherSettings = cipher.values.applied(to: CipherSettings())
        configuration.cipherLogDestination = .discarded
        let output = self.output
        let verification = configuration
        let restored = try ReplicaLocation.run {
            try await replica.restore(to: output, at: time, configuration: verification)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        FileHandle.standardOutput.write(Data(
            "restored \(output)\(enveloped ? " and \(envelope)" : "") from generation \(restored.generation): state of \(formatter.string(from: restored.time)), \(restored.objectCount) object(s)\n".utf8))
    }

    static func parseTime(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        throw ToolError(.usage, "not an ISO 8601 time with its zone: \(text) (write 2026-12-01T09:30:00Z)")
    }
}
