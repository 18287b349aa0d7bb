import Foundation

extension Database {
    /// Re-encrypts the database with a new passphrase.
    ///
    /// The change is atomic: if it fails, the database stays readable with the
    /// current passphrase. Other connections to the same file must reopen
    /// with the new passphrase.
    ///
    /// - throws: A ``DatabaseError`` if the passphrase is empty, the database is
    ///   not encrypted (SQLCipher cannot encrypt a plaintext database in place:
    ///   export it instead), a transaction is open, or re-encryption fails.
    public func changePassphrase(_ passphrase: String) throws {
        try rekey(KeyMaterial(passphrase))
    }

    /// Re-encrypts the database with new passphrase bytes. See
    /// ``changePassphrase(_:)-(String)``.
    ///
    /// - throws: A ``DatabaseError`` (see ``changePassphrase(_:)-(String)``).
    public func changePassphrase(_ passphrase: Data) throws {
        try KeyMaterial.checkLength(passphrase.count)   // before copying the bytes
        try rekey(KeyMaterial(passphrase))
    }

    /// Re-encrypts the database with a new passphrase or raw key, keeping its
    /// cipher settings. See ``changePassphrase(_:)-(String)``.
    ///
    /// ```swift
    /// try db.changeKey(.rawKey(newKeyBytes))
    /// ```
    ///
    /// - throws: A ``DatabaseError`` (see ``changePassphrase(_:)-(String)``).
    public func changeKey(_ key: DatabaseKey) throws {
        try rekey(key.material)
    }
}
