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

/// The keys shared by the connections of one queue or pool: raw keys derived
/// once per passphrase and salt (pools only), the passphrase changes made
/// through them, and whether WAL frames written with a previous key remain.
/// Keys live as long as the queue or pool and are zeroed when released.
final class KeyContext: @unchecked Sendable {
    // Safe: every stored property is only touched while `lock` is held.
    private let lock = NSLock()
    private var derived: [(passphrase: KeyMaterial, salt: [UInt8], rawKey: KeyMaterial?)] = []
    /// For each passphrase a connection may still be configured with, the
    /// passphrase that replaced it. Never chained: a change updates every
    /// entry, so a rotation back to an earlier passphrase cannot loop.
    private var replacements: [(configured: KeyMaterial, current: KeyMaterial)] = []
    /// Called after a passphrase change, so that the pool closes its readers.
    private var changeObserver: (@Sendable () -> Void)?
    /// Set when a rotation could not truncate the WAL because a reader held
    /// frames written with the old key.
    private var oldKeyFramesPending = false
    let reusesDerivedKeys: Bool

    init(reusesDerivedKeys: Bool) {
        self.reusesDerivedKeys = reusesDerivedKeys
    }

    /// Registers the function called after each passphrase change.
    func observeChanges(_ observer: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        changeObserver = observer
    }

    /// Whether WAL frames written with a previous key may remain.
    var hasOldKeyFramesPending: Bool {
        lock.lock()
        defer { lock.unlock() }
        return oldKeyFramesPending
    }

    func setOldKeyFramesPending(_ pending: Bool) {
        lock.lock()
        defer { lock.unlock() }
        oldKeyFramesPending = pending
    }

    /// The passphrase to use for `passphrase`, after the changes made through
    /// the pool: a connection whose `prepareDatabase` still supplies an old
    /// passphrase gets the current one.
    func currentPassphrase(for passphrase: KeyMaterial) -> KeyMaterial {
        lock.lock()
        defer { lock.unlock() }
        return replacements.first(where: { $0.configured.hasSameBytes(as: passphrase) })?.current ?? passphrase
    }

    /// Records a passphrase change made on a connection, once it is known
    /// to have succeeded. `old` is nil for a connection keyed with `PRAGMA
    /// key`: the change is then only announced, so that a pool closes its
    /// readers.
    func recordChange(from old: KeyMaterial?, to new: KeyMaterial) {
        lock.lock()
        if let old {
            for index in replacements.indices where replacements[index].current.hasSameBytes(as: old) {
                replacements[index].current = new
            }
            if !replacements.contains(where: { $0.configured.hasSameBytes(as: old) }) {
                replacements.append((old, new))
            }
            replacements.removeAll { $0.configured.hasSameBytes(as: $0.current) }
            derived.removeAll { $0.passphrase.hasSameBytes(as: old) }
        }
        let observer = changeObserver
        lock.unlock()
        observer?()
    }

    /// The raw key for this passphrase and salt, derived on first use (one
    /// derivation at a time: concurrent openings wait for it instead of
    /// repeating it). nil when derivation is disabled or failed for them.
    func rawKey(for passphrase: KeyMaterial, salt: [UInt8], settings: CipherSettings) -> KeyMaterial? {
        guard reusesDerivedKeys else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let entry = derived.first(where: { $0.salt == salt && $0.passphrase.hasSameBytes(as: passphrase) }) {
            return entry.rawKey
        }
        let rawKey = KeyDerivation.rawKeySpecification(passphrase: passphrase, salt: salt, settings: settings)
        // Kept as long as the pool: never swapped out, where the system allows.
        rawKey?.lockInMemory()
        derived.append((passphrase, salt, rawKey))
        return rawKey
    }

    /// Forgets the raw key derived for this passphrase and salt, which did
    /// not open the file. Keeps no copy of the passphrase.
    func forgetDerivedKey(passphrase: KeyMaterial, salt: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        derived.removeAll { $0.salt == salt && $0.passphrase.hasSameBytes(as: passphrase) }
    }

    /// Stops using derived keys for this salt: its file opened with a
    /// passphrase whose derived key failed, so it uses cipher settings that
    /// the derivation does not match.
    func markUnusable(salt: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        unusableSalts.insert(salt)
    }

    /// Salts whose file did not open with a derived key.
    private var unusableSalts: Set<[UInt8]> = []

    /// Whether derived keys may be tried for this salt.
    func allowsDerivedKeys(salt: [UInt8]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return reusesDerivedKeys && !unusableSalts.contains(salt)
    }

    /// Forgets every key (they are zeroed as they are released).
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        derived.removeAll()
        replacements.removeAll()
    }
}

extension KeyMaterial {
    func hasSameBytes(as other: KeyMaterial) -> Bool {
        count == other.count && zip(bytes, other.bytes).allSatisfy { $0 == $1 }
    }
}
