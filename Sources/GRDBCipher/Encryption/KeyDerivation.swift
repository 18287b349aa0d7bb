import CLibCrypto
import Foundation

/// SQLCipher 4's default key derivation, done by the library itself so that a
/// pool derives a key once and hands the raw key to every other connection.
enum KeyDerivation {
    /// SQLCipher 4 defaults: PBKDF2-HMAC-SHA512, 256,000 iterations, a 32-byte
    /// key and the 16-byte salt that starts the database file.
    static let iterations: CInt = 256_000
    static let keyLength = 32
    static let saltLength = 16

    /// Returns the raw key specification `x'<key hex><salt hex>'` that
    /// `sqlite3_key` accepts, or nil if OpenSSL fails.
    static func rawKeySpecification(passphrase: KeyMaterial, salt: [UInt8]) -> KeyMaterial? {
        precondition(salt.count == saltLength)
        var key = [UInt8](repeating: 0, count: keyLength)
        defer { key.withUnsafeMutableBytes { secureZero($0) } }
        let status = passphrase.bytes.withMemoryRebound(to: CChar.self) { passphraseBytes in
            PKCS5_PBKDF2_HMAC(
                passphraseBytes.baseAddress, CInt(passphrase.count),
                salt, CInt(salt.count), iterations, EVP_sha512(), CInt(keyLength), &key)
        }
        guard status == 1 else { return nil }
        var specification = [UInt8]()
        specification.reserveCapacity(3 + 2 * (keyLength + saltLength))
        specification.append(contentsOf: "x'".utf8)
        appendHex(key, to: &specification)
        appendHex(salt, to: &specification)
        specification.append(UInt8(ascii: "'"))
        defer { specification.withUnsafeMutableBytes { secureZero($0) } }
        return KeyMaterial(specification)
    }

    private static func appendHex(_ bytes: [UInt8], to output: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
    }

    /// The salt of an SQLCipher database: its first 16 bytes. nil for a
    /// missing, empty or in-memory database.
    static func salt(ofDatabaseAt path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: saltLength), data.count == saltLength else { return nil }
        let salt = [UInt8](data)
        // A plaintext file starts with "SQLite format 3": no salt there.
        if salt == Array("SQLite format 3\0".utf8) { return nil }
        return salt
    }
}

/// The keys shared by the connections of one pool: raw keys derived once per
/// passphrase and salt, and the passphrase changes made through the pool.
/// Keys live as long as the pool and are zeroed when released.
final class PoolKeyContext: @unchecked Sendable {
    // Safe: every stored property is only touched while `lock` is held.
    private let lock = NSLock()
    private var derived: [(passphrase: KeyMaterial, salt: [UInt8], rawKey: KeyMaterial?)] = []
    private var rotations: [(old: KeyMaterial, new: KeyMaterial)] = []
    let reusesDerivedKeys: Bool

    init(reusesDerivedKeys: Bool) {
        self.reusesDerivedKeys = reusesDerivedKeys
    }

    /// The passphrase to use for `passphrase`, after the changes made through
    /// the pool: a connection whose `prepareDatabase` still supplies an old
    /// passphrase gets the current one.
    func currentPassphrase(for passphrase: KeyMaterial) -> KeyMaterial {
        lock.lock()
        defer { lock.unlock() }
        var current = passphrase
        while let rotation = rotations.first(where: { $0.old.hasSameBytes(as: current) }) {
            current = rotation.new
        }
        return current
    }

    /// Records a passphrase change made through the pool.
    func recordChange(from old: KeyMaterial, to new: KeyMaterial) {
        lock.lock()
        defer { lock.unlock() }
        rotations.append((old, new))
        derived.removeAll { $0.passphrase.hasSameBytes(as: old) }
    }

    /// The raw key for this passphrase and salt, derived on first use (one
    /// derivation at a time: concurrent openings wait for it instead of
    /// repeating it). nil when derivation is disabled or failed for them.
    func rawKey(for passphrase: KeyMaterial, salt: [UInt8]) -> KeyMaterial? {
        guard reusesDerivedKeys else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let entry = derived.first(where: { $0.salt == salt && $0.passphrase.hasSameBytes(as: passphrase) }) {
            return entry.rawKey
        }
        let rawKey = KeyDerivation.rawKeySpecification(passphrase: passphrase, salt: salt)
        derived.append((passphrase, salt, rawKey))
        return rawKey
    }

    /// Stops using derived keys for this passphrase and salt: the file uses
    /// cipher settings that the derivation does not match.
    func markUnusable(passphrase: KeyMaterial, salt: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        derived.removeAll { $0.salt == salt && $0.passphrase.hasSameBytes(as: passphrase) }
        derived.append((passphrase, salt, nil))
    }

    /// Forgets every key (they are zeroed as they are released).
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        derived.removeAll()
        rotations.removeAll()
    }
}

extension KeyMaterial {
    func hasSameBytes(as other: KeyMaterial) -> Bool {
        count == other.count && zip(bytes, other.bytes).allSatisfy { $0 == $1 }
    }
}
