import CLibCrypto
import Foundation

/// SQLCipher's key derivation (PBKDF2), done by the library itself so that a
/// pool derives a key once and hands the raw key to every other connection.
enum KeyDerivation {
    /// A 32-byte key, and the 16-byte salt that starts the database file.
    static let keyLength = 32
    static let saltLength = 16

    /// Returns the raw key specification `x'<key hex><salt hex>'` that
    /// `sqlite3_key` accepts, derived with the algorithm and iterations of
    /// `settings`, or nil if OpenSSL fails.
    static func rawKeySpecification(
        passphrase: KeyMaterial, salt: [UInt8], settings: CipherSettings) -> KeyMaterial?
    {
        precondition(salt.count == saltLength)
        let (algorithm, iterations) = settings.effectiveKeyDerivation
        guard let iterationCount = CInt(exactly: iterations) else { return nil }
        let digest: OpaquePointer?
        switch algorithm {
        case .pbkdf2HMACSHA1: digest = EVP_sha1()
        case .pbkdf2HMACSHA256: digest = EVP_sha256()
        case .pbkdf2HMACSHA512: digest = EVP_sha512()
        }
        var key = [UInt8](repeating: 0, count: keyLength)
        defer { key.withUnsafeMutableBytes { secureZero($0) } }
        let status = passphrase.bytes.withMemoryRebound(to: CChar.self) { passphraseBytes in
            PKCS5_PBKDF2_HMAC(
                passphraseBytes.baseAddress, CInt(passphrase.count),
                salt, CInt(salt.count), iterationCount, digest, CInt(keyLength), &key)
        }
        guard status == 1 else { return nil }
        return key.withUnsafeBytes { keyBytes in
            salt.withUnsafeBytes { saltBytes in
                KeyMaterial.rawKeySpecification(key: keyBytes, salt: saltBytes)
            }
        }
    }

    /// A random salt for a database file that does not exist yet or is empty,
    /// or nil for an existing file, an in-memory database or a URI. SQLCipher
    /// writes the salt of a raw key specification into a new file, so a pool
    /// can derive the key itself from the start and never pay it twice.
    static func salt(forNewDatabaseAt path: String) -> [UInt8]? {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return nil }
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
           (attributes[.size] as? Int ?? 0) > 0
        {
            return nil
        }
        var generator = SystemRandomNumberGenerator()
        return (0..<saltLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The salt of an SQLCipher database: its first 16 bytes. nil for a
    /// missing, empty or in-memory database.
    static func salt(ofDatabaseAt path: String) -> [UInt8]? {
        // Never through a descriptor of our own: see `DatabaseFileHeader`.
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:"),
              let salt = DatabaseFileHeader.read(atPath: path, count: saltLength),
              salt.count == saltLength else { return nil }
        // A plaintext file starts with "SQLite format 3": no salt there.
        if salt == Array("SQLite format 3\0".utf8) { return nil }
        return salt
    }
}

extension KeyMaterial {
    func hasSameBytes(as other: KeyMaterial) -> Bool {
        count == other.count && zip(bytes, other.bytes).allSatisfy { $0 == $1 }
    }
}
