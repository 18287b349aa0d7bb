import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher envelope ...`: databases whose data key is wrapped by a
/// key-encryption key in `<database>.envelope`.
struct EnvelopeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "envelope",
        abstract: "Manage key envelopes: a random data key wrapped by a key-encryption key.",
        discussion: """
            The key-encryption key comes from GRDBCIPHER_KEK_FILE (a file holding a passphrase) or \
            GRDBCIPHER_KEK_COMMAND (a command line, split on spaces, run without a shell, that prints \
            64 hexadecimal digits); the new one of rewrap from GRDBCIPHER_NEW_KEK_FILE or \
            GRDBCIPHER_NEW_KEK_COMMAND. Never from an argument. Losing DB.envelope loses the data: \
            back it up with the database.
            """,
        subcommands: [
            EnvelopeInitCommand.self, EnvelopeShowCommand.self, EnvelopeRewrapCommand.self,
            EnvelopeRotateDataKeyCommand.self,
        ])
}

/// Runs an envelope operation, with the tool's exit statuses for its errors.
private func envelopeOperation(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as DatabaseEnvelopeError {
        throw KeyEncryptionKeySource.toolError(error)
    }
}

/// `grdbcipher envelope init DB`.
struct EnvelopeInitCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create an enveloped database, or encrypt a plaintext one under a new data key.",
        discussion: """
            A missing DB becomes a new empty database encrypted with a random data key, and DB.envelope \
            holds that key wrapped. A plaintext DB is encrypted under a random data key: the encrypted \
            copy is written beside it and renamed over it. An encrypted DB is refused (status 4).
            """)

    @Argument(help: "The database file.")
    var file: String

    func execute() throws {
        let kek = try KeyEncryptionKeySource.current()
        try envelopeOperation {
            if FileManager.default.fileExists(atPath: file), (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 > 0 {
                guard try !DatabaseFile.isEncrypted(atPath: file) else {
                    throw ToolError(.refused, "\(file) is already encrypted: its key is not a data key of an envelope")
                }
                try DatabaseEnvelope.encrypt(plaintextDatabaseAt: file, keyEncryptionKey: kek)
                Diagnostics.note("encrypted \(file) under a new data key; its envelope is \(DatabaseEnvelope.path(forDatabaseAt: file))")
            } else {
                var configuration = Configuration()
                configuration.key = try DatabaseEnvelope.create(forDatabaseAt: file, keyEncryptionKey: kek)
                configuration.filePermissions = 0o600
                let queue = try DatabaseQueue(path: file, configuration: configuration)
                // Writes the first page: the file holds its salt from now on.
                try queue.write { db in try db.execute(sql: "PRAGMA user_version = 0") }
                try queue.close()
                Diagnostics.note("created \(file) and its envelope \(DatabaseEnvelope.path(forDatabaseAt: file))")
            }
        }
    }
}

/// `grdbcipher envelope show DB`.
struct EnvelopeShowCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print what DB.envelope says of itself (never a key).",
        discussion: "Needs no key. Prints the format version, the key-encryption key's kind and derivation, and the dates.")

    @Argument(help: "The database file.")
    var file: String

    func execute() throws {
        try envelopeOperation {
            let info = try DatabaseEnvelope.info(forDatabaseAt: file)
            let formatter = ISO8601DateFormatter()
            var lines = [
                "envelope: \(DatabaseEnvelope.path(forDatabaseAt: file))",
                "format: GRDBCipher key envelope, version \(info.version)",
                "key-encryption key: \(info.keyEncryptionKeyKind)",
            ]
            if let scrypt = info.scrypt {
                lines.append("kdf: scrypt (N \(scrypt.cost), r \(scrypt.blockSize), p \(scrypt.parallelization))")
            } else {
                lines.append("kdf: none")
            }
            lines.append("created: \(formatter.string(from: info.created))")
            lines.append("rewrapped: \(formatter.string(from: info.rewrapped))")
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}

/// `grdbcipher envelope rewrap DB`.
struct EnvelopeRewrapCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrap",
        abstract: "Wrap the data key under a new key-encryption key; no page of DB changes.",
        discussion: "The new key comes from GRDBCIPHER_NEW_KEK_FILE or GRDBCIPHER_NEW_KEK_COMMAND.")

    @Argument(help: "The database file.")
    var file: String

    func execute() throws {
        let current = try KeyEncryptionKeySource.current()
        let new = try KeyEncryptionKeySource.new()
        try envelopeOperation {
            try DatabaseEnvelope.rewrap(forDatabaseAt: file, from: current, to: new)
            Diagnostics.note("rewrapped the data key of \(file)")
        }
    }
}

/// `grdbcipher envelope rotate-data-key DB`.
struct EnvelopeRotateDataKeyCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-data-key",
        abstract: "Re-encrypt DB under a new data key, and replace its envelope.",
        discussion: """
            Run it while no other process uses DB. If it is interrupted, the next open through the \
            envelope completes or undoes the rotation.
            """)

    @Argument(help: "The database file.")
    var file: String

    func execute() throws {
        let kek = try KeyEncryptionKeySource.current()
        try envelopeOperation {
            try DatabaseEnvelope.rotateDataKey(forDatabaseAt: file, keyEncryptionKey: kek)
            Diagnostics.note("re-encrypted \(file) under a new data key")
        }
    }
}
