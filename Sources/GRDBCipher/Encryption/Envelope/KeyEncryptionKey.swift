import Foundation

/// The key that wraps a database's data key in its envelope (see
/// ``DatabaseEnvelope``): a passphrase (stretched with scrypt, whose
/// parameters the envelope keeps), 32 raw bytes, or the output of a command
/// that a secrets manager provides.
///
/// ```swift
/// let kek = KeyEncryptionKey.passphrase("correct horse battery staple")
/// let kek = try KeyEncryptionKey.rawKey(keyBytes)                     // 32 bytes
/// let kek = KeyEncryptionKey.command(["vault", "read", "-field=kek", "secret/db"])
/// ```
///
/// Its bytes live in memory that is zeroed when the last copy goes away, and
/// never appear in a description.
public struct KeyEncryptionKey: Sendable, CustomStringConvertible {
    enum Source: Sendable {
        case passphrase(KeyMaterial, ScryptParameters)
        case rawKey(KeyMaterial)
        case command([String], timeout: Duration)
    }

    let source: Source

    /// A passphrase, stretched with scrypt when it wraps or unwraps a key.
    /// The parameters apply to new envelopes; an existing envelope is opened
    /// with the parameters it stores.
    public static func passphrase(_ passphrase: String, scrypt: ScryptParameters = .default) -> KeyEncryptionKey {
        KeyEncryptionKey(source: .passphrase(KeyMaterial(passphrase), scrypt))
    }

    /// A passphrase given as bytes; see ``passphrase(_:scrypt:)-(String,_)``.
    public static func passphrase(_ passphrase: Data, scrypt: ScryptParameters = .default) -> KeyEncryptionKey {
        KeyEncryptionKey(source: .passphrase(KeyMaterial(passphrase), scrypt))
    }

    /// The passphrase held by a file (one trailing line break is not part
    /// of it), read now.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.invalidKey`) if the file
    ///   cannot be read or is empty.
    public static func passphraseFile(atPath path: String, scrypt: ScryptParameters = .default) throws -> KeyEncryptionKey {
        guard var data = FileManager.default.contents(atPath: path) else {
            throw DatabaseEnvelopeError(.invalidKey, "cannot read the key-encryption passphrase file \(path)")
        }
        defer { data.withUnsafeMutableBytes { secureZero($0) } }
        var count = data.count
        if count > 0, data[count - 1] == UInt8(ascii: "\n") { count -= 1 }
        if count > 0, data[count - 1] == UInt8(ascii: "\r") { count -= 1 }
        guard count > 0 else {
            throw DatabaseEnvelopeError(.invalidKey, "the key-encryption passphrase file \(path) is empty")
        }
        let material = data.withUnsafeBytes { KeyMaterial(copying: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        return KeyEncryptionKey(source: .passphrase(material, scrypt))
    }

    /// 32 raw bytes, used as the AES-256-GCM key as is.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.invalidKey`) unless the key
    ///   is 32 bytes long.
    public static func rawKey(_ key: Data) throws -> KeyEncryptionKey {
        guard key.count == EnvelopeCrypto.keyLength else {
            throw DatabaseEnvelopeError(
                .invalidKey, "a raw key-encryption key must be \(EnvelopeCrypto.keyLength) bytes long, not \(key.count)")
        }
        return KeyEncryptionKey(source: .rawKey(key.withUnsafeBytes { KeyMaterial(copying: $0) }))
    }

    /// A command whose standard output is the key: 64 hexadecimal digits
    /// (32 bytes), with surrounding white space allowed. It runs without a
    /// shell (the first argument is the program, found in `PATH` unless it
    /// names a path), each time the key is needed, and is stopped after
    /// `timeout`. Its standard error is passed through; its output never
    /// reaches an error message.
    public static func command(_ arguments: [String], timeout: Duration = .seconds(30)) -> KeyEncryptionKey {
        KeyEncryptionKey(source: .command(arguments, timeout: timeout))
    }

    /// Never the key.
    public var description: String {
        switch source {
        case .passphrase: "KeyEncryptionKey(passphrase)"
        case .rawKey: "KeyEncryptionKey(raw key)"
        case .command(let arguments, _): "KeyEncryptionKey(command \(arguments.first ?? ""))"
        }
    }

    /// The 32 bytes that wrap and unwrap, with the derivation that gave
    /// them: `derivation` is the envelope's when opening one, nil when
    /// wrapping anew (a passphrase then gets a fresh salt).
    func resolve(derivation: EnvelopeKeyDerivation?) throws -> (KeyMaterial, EnvelopeKeyDerivation) {
        switch source {
        case .passphrase(let passphrase, let parameters):
            let used: EnvelopeKeyDerivation
            switch derivation {
            case .scrypt?: used = derivation!
            case .none?: throw DatabaseEnvelopeError(
                .wrongKeyEncryptionKey, "the envelope is wrapped by a raw key, not by a passphrase")
            case nil: used = .scrypt(parameters, salt: try EnvelopeCrypto.randomBytes(16))
            }
            guard case .scrypt(let usedParameters, let salt) = used else { fatalError("unreachable") }
            return (try EnvelopeCrypto.scrypt(passphrase, salt: salt, parameters: usedParameters), used)
        case .rawKey(let key):
            try Self.checkRawDerivation(derivation)
            return (key, .none)
        case .command(let arguments, let timeout):
            try Self.checkRawDerivation(derivation)
            return (try KeyCommand.run(arguments, timeout: timeout), .none)
        }
    }

    private static func checkRawDerivation(_ derivation: EnvelopeKeyDerivation?) throws {
        if case .scrypt? = derivation {
            throw DatabaseEnvelopeError(
                .wrongKeyEncryptionKey, "the envelope is wrapped by a passphrase, not by a raw key")
        }
    }
}

/// How an envelope's key-encryption key is derived: from a passphrase with
/// scrypt (parameters and salt stored in the envelope), or not at all.
enum EnvelopeKeyDerivation: Sendable, Equatable {
    case scrypt(ScryptParameters, salt: [UInt8])
    case none
}
