/// How SQLCipher encrypts a database file: the format of its pages and the
/// way a passphrase becomes a key.
///
/// Every property left nil keeps SQLCipher's default (SQLCipher 4: 4096-byte
/// pages, PBKDF2-HMAC-SHA512 with 256,000 iterations, HMAC-SHA512 on every
/// page). A file must be opened with the settings it was written with; other
/// settings fail like a wrong passphrase, with `SQLITE_NOTADB`.
///
/// ```swift
/// var config = Configuration()
/// config.passphrase = "secret"
/// config.cipherSettings = .sqlcipher3               // a file written by SQLCipher 3
///
/// var custom = CipherSettings()
/// custom.kdfIterations = 500_000
/// custom.pageSize = 8192
/// ```
///
/// The settings are applied to every connection right after its key, before
/// any other statement.
public struct CipherSettings: Hashable, Sendable, CustomStringConvertible {
    /// A key derivation function (`PRAGMA cipher_kdf_algorithm`).
    public enum KDFAlgorithm: String, Hashable, Sendable, CaseIterable {
        /// PBKDF2 with HMAC-SHA1: SQLCipher 1 to 3.
        case pbkdf2HMACSHA1 = "PBKDF2_HMAC_SHA1"
        /// PBKDF2 with HMAC-SHA256.
        case pbkdf2HMACSHA256 = "PBKDF2_HMAC_SHA256"
        /// PBKDF2 with HMAC-SHA512: SQLCipher 4.
        case pbkdf2HMACSHA512 = "PBKDF2_HMAC_SHA512"
    }

    /// A page authentication algorithm (`PRAGMA cipher_hmac_algorithm`).
    public enum HMACAlgorithm: String, Hashable, Sendable, CaseIterable {
        /// HMAC-SHA1: SQLCipher 2 and 3 (20 bytes per page).
        case hmacSHA1 = "HMAC_SHA1"
        /// HMAC-SHA256 (32 bytes per page).
        case hmacSHA256 = "HMAC_SHA256"
        /// HMAC-SHA512: SQLCipher 4 (64 bytes per page).
        case hmacSHA512 = "HMAC_SHA512"
    }

    /// The SQLCipher major version whose defaults apply (`PRAGMA
    /// cipher_compatibility`, 1 to 4), before the other properties override
    /// them. nil: the linked library's own defaults (SQLCipher 4).
    public var compatibility: Int?

    /// The number of key derivation iterations (`PRAGMA kdf_iter`), from 1
    /// to `Int32.max` (SQLCipher would silently truncate a larger number).
    public var kdfIterations: Int?

    /// The key derivation function (`PRAGMA cipher_kdf_algorithm`).
    public var kdfAlgorithm: KDFAlgorithm?

    /// The page authentication algorithm (`PRAGMA cipher_hmac_algorithm`).
    public var hmacAlgorithm: HMACAlgorithm?

    /// The page size in bytes (`PRAGMA cipher_page_size`): a power of two
    /// from 512 to 65536.
    public var pageSize: Int?

    /// Whether each page carries an HMAC that detects tampering (`PRAGMA
    /// cipher_use_hmac`). Turning it off loses tamper detection.
    public var usesHMAC: Bool?

    /// The number of bytes at the start of the file left unencrypted (`PRAGMA
    /// cipher_plaintext_header_size`): 0, or a multiple of 16 smaller than the
    /// page size; 32 keeps SQLite's header readable, as some platforms need.
    /// The file then no longer holds its salt: it needs a raw key that
    /// includes the salt (``DatabaseKey/rawKey(_:salt:)``); any other key is
    /// refused, since the file could not be opened again.
    public var plaintextHeaderSize: Int?

    /// Whether SQLCipher wipes and locks the memory it allocates (`PRAGMA
    /// cipher_memory_security`). This is a process-wide switch: once on, it
    /// stays on for every connection until the process exits. It costs speed.
    ///
    /// Off (SQLCipher's default), SQLCipher's own copies of the key and of
    /// the keys it derives live in ordinary memory, which the system may
    /// write to swap: GRDBCipher locks only the key buffers it holds itself
    /// (a pool's derived key). Turn it on, or disable swap, where a key must
    /// never reach the disk.
    public var memorySecurity: Bool?

    /// The fewest key derivation iterations a new database, or a copy
    /// exported with new settings, may be given: 4,000, the fewest any
    /// SQLCipher version used by default. Files written with fewer still open.
    public static let minimumKDFIterationsForNewDatabases = 4_000

    /// Whether new databases may derive their key with fewer iterations than
    /// ``minimumKDFIterationsForNewDatabases``: set by the testing kit's
    /// fast test keys only, so that they cannot reach production.
    /// Not part of the settings' equality.
    @_spi(InsecureKeyDerivation)
    public var allowsInsecureKeyDerivation: Bool {
        get { insecureKeyDerivation.isAllowed }
        set { insecureKeyDerivation.isAllowed = newValue }
    }

    private var insecureKeyDerivation = InsecureKeyDerivationAllowance()

    /// Creates settings; nil properties keep SQLCipher's defaults.
    public init(
        compatibility: Int? = nil,
        kdfIterations: Int? = nil,
        kdfAlgorithm: KDFAlgorithm? = nil,
        hmacAlgorithm: HMACAlgorithm? = nil,
        pageSize: Int? = nil,
        usesHMAC: Bool? = nil,
        plaintextHeaderSize: Int? = nil,
        memorySecurity: Bool? = nil)
    {
        self.compatibility = compatibility
        self.kdfIterations = kdfIterations
        self.kdfAlgorithm = kdfAlgorithm
        self.hmacAlgorithm = hmacAlgorithm
        self.pageSize = pageSize
        self.usesHMAC = usesHMAC
        self.plaintextHeaderSize = plaintextHeaderSize
        self.memorySecurity = memorySecurity
    }

    /// SQLCipher 4's defaults: what a file created by SQLCipher 4 uses.
    public static let sqlcipher4 = CipherSettings()

    /// SQLCipher 3's defaults: 1024-byte pages, PBKDF2-HMAC-SHA1 with 64,000
    /// iterations, HMAC-SHA1. Opens files written by SQLCipher 3.
    public static let sqlcipher3 = CipherSettings(compatibility: 3)

    /// The settings as `PRAGMA` statements, compatibility first so that the
    /// other properties override its defaults. `schema` names an attached
    /// database ("export"), or nil for the main one.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_MISUSE`) for a value SQLCipher
    ///   would refuse or silently ignore.
    func pragmas(schema: String? = nil) throws -> [String] {
        try validate()
        let prefix = "PRAGMA " + (schema.map { "\($0)." } ?? "")
        var pragmas: [String] = []
        if let compatibility { pragmas.append(prefix + "cipher_compatibility = \(compatibility)") }
        if let pageSize { pragmas.append(prefix + "cipher_page_size = \(pageSize)") }
        if let kdfIterations { pragmas.append(prefix + "kdf_iter = \(kdfIterations)") }
        if let kdfAlgorithm { pragmas.append(prefix + "cipher_kdf_algorithm = \(kdfAlgorithm.rawValue)") }
        if let usesHMAC { pragmas.append(prefix + "cipher_use_hmac = \(usesHMAC ? "ON" : "OFF")") }
        if let hmacAlgorithm { pragmas.append(prefix + "cipher_hmac_algorithm = \(hmacAlgorithm.rawValue)") }
        if let plaintextHeaderSize {
            pragmas.append(prefix + "cipher_plaintext_header_size = \(plaintextHeaderSize)")
        }
        // Process-wide, and cannot be turned off once on: only ever turn it on.
        if memorySecurity == true { pragmas.append("PRAGMA cipher_memory_security = ON") }
        return pragmas
    }

    /// SQLCipher answers some bad values with an error state that surfaces
    /// later, and ignores others: refuse them here, with the reason.
    /// Throws unless these settings may derive the key of a new database:
    /// see ``minimumKDFIterationsForNewDatabases``.
    func checkKeyDerivationForNewDatabase() throws {
        guard let kdfIterations, kdfIterations < Self.minimumKDFIterationsForNewDatabases,
              !allowsInsecureKeyDerivation else { return }
        throw DatabaseError.misuse(
            "\(kdfIterations) key derivation iterations are too few for a new database: at least "
                + "\(Self.minimumKDFIterationsForNewDatabases) (SQLCipher 4's default is 256,000); "
                + "fast keys are for tests only (GRDBCipherTesting's TestKey)")
    }

    func validate() throws {
        if let compatibility, !(1...4).contains(compatibility) {
            throw DatabaseError.misuse("cipher compatibility must be 1, 2, 3 or 4, not \(compatibility)")
        }
        if let kdfIterations, kdfIterations < 1 {
            throw DatabaseError.misuse("the number of key derivation iterations must be at least 1, not \(kdfIterations)")
        }
        // SQLCipher reads the pragma into a C int: 4294967297 would become 1.
        if let kdfIterations, kdfIterations > Int(CInt.max) {
            throw DatabaseError.misuse(
                "the number of key derivation iterations must be at most \(CInt.max), not \(kdfIterations)")
        }
        if let pageSize, !(512...65536).contains(pageSize) || pageSize & (pageSize - 1) != 0 {
            throw DatabaseError.misuse("the cipher page size must be a power of two from 512 to 65536, not \(pageSize)")
        }
        if let plaintextHeaderSize,
           plaintextHeaderSize < 0 || plaintextHeaderSize % 16 != 0 || plaintextHeaderSize >= effectivePageSize
        {
            throw DatabaseError.misuse(
                "the plaintext header size must be 0 or a multiple of 16 smaller than the page size, "
                    + "not \(plaintextHeaderSize)")
        }
    }

    /// The settings that shape an encrypted page; key derivation left out.
    var pageFormat: CipherSettings {
        CipherSettings(
            hmacAlgorithm: hmacAlgorithm, pageSize: pageSize, usesHMAC: usesHMAC,
            plaintextHeaderSize: plaintextHeaderSize)
    }

    /// Throws if these settings cannot work with this key: a plaintext
    /// header leaves no room for the salt in the file, so only a raw key that
    /// carries its salt can open the file again.
    func check(key: KeyMaterial) throws {
        if (plaintextHeaderSize ?? 0) > 0, !(key.isRawKeySpecification && key.count == 99) {
            throw DatabaseError.misuse(
                "a plaintext header leaves the salt out of the file: use a raw key with its salt "
                    + "(DatabaseKey.rawKey(_:salt:)), or the file could not be opened again")
        }
    }

    /// The page size in effect with these settings.
    var effectivePageSize: Int {
        pageSize ?? ((compatibility ?? 4) >= 4 ? 4096 : 1024)
    }

    /// The key derivation in effect with these settings, so that a pool can
    /// derive a key exactly as SQLCipher would.
    var effectiveKeyDerivation: (algorithm: KDFAlgorithm, iterations: Int) {
        let compatibility = self.compatibility ?? 4
        let defaultAlgorithm: KDFAlgorithm = compatibility >= 4 ? .pbkdf2HMACSHA512 : .pbkdf2HMACSHA1
        let defaultIterations: Int
        switch compatibility {
        case 4: defaultIterations = 256_000
        case 3: defaultIterations = 64_000
        default: defaultIterations = 4_000
        }
        return (kdfAlgorithm ?? defaultAlgorithm, kdfIterations ?? defaultIterations)
    }

    /// The settings that are not SQLCipher's defaults, as pragma names and values.
    public var description: String {
        var parts: [String] = []
        if let compatibility { parts.append("compatibility: \(compatibility)") }
        if let kdfIterations { parts.append("kdfIterations: \(kdfIterations)") }
        if let kdfAlgorithm { parts.append("kdfAlgorithm: \(kdfAlgorithm.rawValue)") }
        if let hmacAlgorithm { parts.append("hmacAlgorithm: \(hmacAlgorithm.rawValue)") }
        if let pageSize { parts.append("pageSize: \(pageSize)") }
        if let usesHMAC { parts.append("usesHMAC: \(usesHMAC)") }
        if let plaintextHeaderSize { parts.append("plaintextHeaderSize: \(plaintextHeaderSize)") }
        if let memorySecurity { parts.append("memorySecurity: \(memorySecurity)") }
        return "CipherSettings(\(parts.joined(separator: ", ")))"
    }
}

/// Whether fast, insecure key derivation is allowed: equal to every other
/// value, so that it does not change the equality of cipher settings.
private struct InsecureKeyDerivationAllowance: Hashable, Sendable {
    var isAllowed = false
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
