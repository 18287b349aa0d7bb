/// How an exported database file is encrypted: with a key and cipher
/// settings, or not at all.
///
/// ```swift
/// try dbQueue.export(to: path, encryption: .encrypted(key: .passphrase("new secret")))
/// try dbQueue.export(to: path, encryption: .encrypted(key: try .rawKey(keyBytes), settings: .sqlcipher3))
/// try dbQueue.export(to: path, encryption: .plaintext)
/// ```
public enum DatabaseEncryption: Sendable {
    /// Encrypted with `key` and `settings` (default: SQLCipher 4's defaults).
    case encrypted(key: DatabaseKey, settings: CipherSettings = CipherSettings())

    /// Not encrypted: anyone who can read the file can read the data.
    case plaintext
}
