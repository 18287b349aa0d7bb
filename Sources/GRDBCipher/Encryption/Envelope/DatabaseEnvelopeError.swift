/// Why a key envelope could not be used. Nothing changed on disk when one
/// is thrown. The message never holds key bytes.
public struct DatabaseEnvelopeError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No envelope file beside the database.
        case missing
        /// The key-encryption key does not open the envelope: a wrong key,
        /// or an envelope whose bytes changed (the two look alike to
        /// AES-GCM).
        case wrongKeyEncryptionKey
        /// The envelope is not one: truncated, not its format, or a version
        /// this library does not read.
        case malformed
        /// The envelope was made for another database file (its salt
        /// differs from the file's).
        case belongsToAnotherDatabase
        /// The key command failed, timed out, or printed something that is
        /// not a key.
        case keyCommandFailed
        /// A key-encryption key of the wrong size, or another bad input.
        case invalidKey
        /// libcrypto failed.
        case cryptoFailure
    }

    /// What went wrong.
    public let kind: Kind
    /// What went wrong, for people.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    static func crypto(_ message: String) -> DatabaseEnvelopeError {
        DatabaseEnvelopeError(.cryptoFailure, message)
    }
}
