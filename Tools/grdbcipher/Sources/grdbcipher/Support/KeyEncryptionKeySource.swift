import Foundation
import GRDBCipher

/// Where the key-encryption keys of `envelope` commands come from: files or
/// commands named by environment variables, never by an argument.
///
/// - `GRDBCIPHER_KEK_FILE`: a file holding a passphrase (one trailing line
///   break is not part of it), stretched with scrypt;
/// - `GRDBCIPHER_KEK_COMMAND`: a command line, split on spaces and run
///   without a shell, that prints the key as 64 hexadecimal digits;
/// - `GRDBCIPHER_NEW_KEK_FILE` and `GRDBCIPHER_NEW_KEK_COMMAND`: the same,
///   for the new key of `envelope rewrap`.
enum KeyEncryptionKeySource {
    static let fileVariable = "GRDBCIPHER_KEK_FILE"
    static let commandVariable = "GRDBCIPHER_KEK_COMMAND"
    static let newFileVariable = "GRDBCIPHER_NEW_KEK_FILE"
    static let newCommandVariable = "GRDBCIPHER_NEW_KEK_COMMAND"

    /// The current key-encryption key.
    static func current() throws -> KeyEncryptionKey {
        try key(fileVariable: fileVariable, commandVariable: commandVariable)
    }

    /// The new key-encryption key of a rewrap.
    static func new() throws -> KeyEncryptionKey {
        try key(fileVariable: newFileVariable, commandVariable: newCommandVariable)
    }

    private static func key(fileVariable: String, commandVariable: String) throws -> KeyEncryptionKey {
        let environment = ProcessInfo.processInfo.environment
        switch (environment[fileVariable], environment[commandVariable]) {
        case (let file?, nil):
            do {
                return try KeyEncryptionKey.passphraseFile(atPath: file)
            } catch let error as DatabaseEnvelopeError {
                throw ToolError(.usage, error.message)
            }
        case (nil, let command?):
            let arguments = command.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard !arguments.isEmpty else { throw ToolError(.usage, "\(commandVariable) is empty") }
            return KeyEncryptionKey.command(arguments)
        case (_?, _?):
            throw ToolError(.usage, "set \(fileVariable) or \(commandVariable), not both")
        case (nil, nil):
            throw ToolError(.usage, "no key-encryption key: set \(fileVariable) or \(commandVariable)")
        }
    }

    /// The data key of the enveloped database at `path`.
    ///
    /// - throws: The ``ToolError`` of ``toolError(_:)`` when the envelope
    ///   does not open.
    static func dataKey(forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey) throws -> DatabaseKey {
        do {
            return try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: keyEncryptionKey).key
        } catch let error as DatabaseEnvelopeError {
            throw toolError(error)
        }
    }

    /// The exit status and message of an envelope error.
    static func toolError(_ error: DatabaseEnvelopeError) -> ToolError {
        switch error.kind {
        case .missing: ToolError(.missingInput, error.message)
        case .wrongKeyEncryptionKey, .malformed, .belongsToAnotherDatabase: ToolError(.doesNotOpen, error.message)
        case .invalidKey: ToolError(.refused, error.message)
        case .keyCommandFailed, .cryptoFailure: ToolError(.failure, error.message)
        }
    }
}
