import Foundation

/// The secret that encrypts a database: a passphrase, from which SQLCipher
/// derives the key, or a raw 256-bit key that skips the derivation.
///
/// ```swift
/// var config = Configuration()
/// config.key = .passphrase("correct horse battery staple")
/// config.key = try .rawKey(keyBytes)                   // 32 bytes
/// config.key = try .rawKey(keyBytes, salt: saltBytes)  // and the file's 16-byte salt
/// ```
///
/// The bytes are kept in memory that is zeroed when the last copy of the key
/// goes away, and never appear in a description.
public struct DatabaseKey: Sendable, CustomStringConvertible {
    /// What `sqlite3_key` receives: the passphrase, or SQLCipher's raw key
    /// notation `x'<key hex>[<salt hex>]'`.
    let material: KeyMaterial

    /// Whether the key is a raw key, which SQLCipher uses without derivation.
    public var isRawKey: Bool { material.isRawKeySpecification }

    init(material: KeyMaterial) {
        self.material = material
    }

    /// A passphrase, given as text (its UTF-8 bytes are the passphrase).
    public static func passphrase(_ passphrase: String) -> DatabaseKey {
        DatabaseKey(material: KeyMaterial(passphrase))
    }

    /// A passphrase, given as bytes.
    public static func passphrase(_ passphrase: Data) -> DatabaseKey {
        DatabaseKey(material: KeyMaterial(passphrase))
    }

    /// A raw 256-bit key, used as is: opening costs no key derivation.
    ///
    /// The salt is the 16 bytes SQLCipher stores at the start of the file.
    /// Give it to create a file with a known salt, or to open one whose salt
    /// is not in the file (see ``CipherSettings/plaintextHeaderSize``);
    /// otherwise SQLCipher reads it from the file, or picks a random one for
    /// a new file.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_MISUSE`) unless the key is 32
    ///   bytes long and the salt, if any, 16 bytes long.
    public static func rawKey(_ key: Data, salt: Data? = nil) throws -> DatabaseKey {
        guard key.count == KeyDerivation.keyLength else {
            throw DatabaseError.misuse(
                "a raw key must be \(KeyDerivation.keyLength) bytes long, not \(key.count)")
        }
        if let salt, salt.count != KeyDerivation.saltLength {
            throw DatabaseError.misuse(
                "a raw key's salt must be \(KeyDerivation.saltLength) bytes long, not \(salt.count)")
        }
        return key.withUnsafeBytes { keyBytes in
            if let salt {
                return salt.withUnsafeBytes { saltBytes in
                    DatabaseKey(material: KeyMaterial.rawKeySpecification(key: keyBytes, salt: saltBytes))
                }
            }
            return DatabaseKey(material: KeyMaterial.rawKeySpecification(key: keyBytes, salt: nil))
        }
    }

    /// Never the key.
    public var description: String { isRawKey ? "DatabaseKey(raw key)" : "DatabaseKey(passphrase)" }
}
