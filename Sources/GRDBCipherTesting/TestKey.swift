import Foundation
@_spi(InsecureKeyDerivation) import GRDBCipher

/// A database key for tests: the key GRDBCipher takes, the cipher settings
/// that go with it, and what the `sqlcipher` shell needs to open the same file.
///
/// SQLCipher 4 derives the key from a passphrase with 256,000 PBKDF2 rounds:
/// 0.1 to 0.3 s each time a connection opens. A test suite that opens files
/// hundreds of times pays minutes for it. The two `insecure` keys cost
/// nothing to open:
///
/// - ``insecureRandomRawKey()``: 32 random bytes, used as the key itself, with
///   no derivation at all. The default of ``TemporaryEncryptedDatabase``.
/// - ``insecureFastPassphrase(_:)``: a passphrase derived with a single PBKDF2
///   round, for code that takes a passphrase (`changePassphrase`, a server's
///   configuration). Files still use SQLCipher 4's page format, HMACs and
///   encryption; only the derivation is cheap.
///
/// Their names say what they are: a file keyed with one falls to a brute-force
/// attack (one round), or holds the key that the test knows. Never use them
/// outside tests. ``passphrase(_:cipherSettings:)`` keeps SQLCipher's real
/// derivation, for the tests where the derivation is what is tested.
///
/// ```swift
/// let key = TestKey.insecureRandomRawKey()
/// let dbQueue = try DatabaseQueue(path: path, configuration: key.configuration)
/// ```
///
/// A key never appears in a description, nor in the failure messages of the
/// checks.
public struct TestKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret, kept for the `sqlcipher` shell, which takes the key as text.
    enum Secret: Sendable {
        case passphrase(Data)
        case rawKey(Data, salt: Data?)
    }

    /// The number of PBKDF2 rounds of ``insecureFastPassphrase(_:)``.
    static let insecureKDFIterations = 1

    let secret: Secret
    private let kind: String

    /// The key, as a `Configuration` takes it.
    public let databaseKey: DatabaseKey

    /// The cipher settings that open a file keyed with this key.
    public let cipherSettings: CipherSettings

    private init(secret: Secret, databaseKey: DatabaseKey, cipherSettings: CipherSettings, kind: String) {
        self.secret = secret
        self.databaseKey = databaseKey
        // Test keys may create databases with fast, insecure key
        // derivation; nothing else can.
        var settings = cipherSettings
        settings.allowsInsecureKeyDerivation = true
        self.cipherSettings = settings
        self.kind = kind
    }

    /// A new random 256-bit raw key, with SQLCipher 4's default settings:
    /// opening a database costs no key derivation. For tests only: see ``TestKey``.
    ///
    /// ```swift
    /// let key = TestKey.insecureRandomRawKey()
    /// try dbPool.changeKey(key.databaseKey)
    /// ```
    public static func insecureRandomRawKey() -> TestKey {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        // 32 bytes and no salt: rawKey(_:salt:) cannot refuse them.
        let databaseKey = try! DatabaseKey.rawKey(bytes)
        return TestKey(
            secret: .rawKey(bytes, salt: nil), databaseKey: databaseKey, cipherSettings: CipherSettings(),
            kind: "insecure random raw key")
    }

    /// `passphrase`, derived with one PBKDF2 round instead of SQLCipher 4's
    /// 256,000 (`kdfIterations = 1` in ``cipherSettings``), so that opening a
    /// database costs nothing. For tests only: see ``TestKey``.
    ///
    /// Every connection to the file needs the same settings: use
    /// ``configuration`` or ``configuration(basedOn:)``. Code under test that
    /// takes only a passphrase, and opens with SQLCipher's default settings,
    /// cannot open such a file: give it ``passphrase(_:cipherSettings:)``
    /// instead (SQLCipher 4's defaults: a pool derives the key once, about
    /// 0.1 s), or let it take a `Configuration` and pass ``configuration``.
    /// A rotation with
    /// `changePassphrase` keeps them, so the new passphrase opens the file as
    /// `TestKey.insecureFastPassphrase(newPassphrase)`.
    ///
    /// ```swift
    /// let old = TestKey.insecureFastPassphrase("old")
    /// let dbPool = try DatabasePool(path: path, configuration: old.configuration)
    /// try dbPool.changePassphrase("new")
    /// expectRotated(path, from: old.configuration, to: TestKey.insecureFastPassphrase("new").configuration)
    /// ```
    public static func insecureFastPassphrase(_ passphrase: String) -> TestKey {
        TestKey(
            secret: .passphrase(Data(passphrase.utf8)), databaseKey: .passphrase(passphrase),
            cipherSettings: CipherSettings(kdfIterations: insecureKDFIterations),
            kind: "insecure fast passphrase, \(insecureKDFIterations) PBKDF2 round")
    }

    /// A passphrase with the given settings: SQLCipher 4's defaults, and their
    /// full key derivation, unless `cipherSettings` says otherwise. For the
    /// tests of key derivation itself, or of files written elsewhere.
    public static func passphrase(_ passphrase: String, cipherSettings: CipherSettings = CipherSettings()) -> TestKey {
        TestKey(
            secret: .passphrase(Data(passphrase.utf8)), databaseKey: .passphrase(passphrase),
            cipherSettings: cipherSettings, kind: "passphrase")
    }

    /// A raw 256-bit key, and optionally the file's 16-byte salt (see
    /// `DatabaseKey.rawKey(_:salt:)`), with the given settings.
    ///
    /// - throws: A `DatabaseError` (`SQLITE_MISUSE`) unless the key is 32
    ///   bytes long and the salt, if any, 16 bytes long.
    public static func rawKey(_ key: Data, salt: Data? = nil, cipherSettings: CipherSettings = CipherSettings()) throws -> TestKey {
        TestKey(
            secret: .rawKey(key, salt: salt), databaseKey: try .rawKey(key, salt: salt),
            cipherSettings: cipherSettings, kind: "raw key")
    }

    /// A configuration with this key and its cipher settings, and defaults
    /// for everything else.
    public var configuration: Configuration {
        configuration(basedOn: Configuration())
    }

    /// `base`, keyed with this key and its cipher settings (which replace
    /// those of `base`).
    ///
    /// ```swift
    /// var base = Configuration()
    /// base.foreignKeysEnabled = true
    /// let dbPool = try DatabasePool(path: path, configuration: key.configuration(basedOn: base))
    /// ```
    public func configuration(basedOn base: Configuration) -> Configuration {
        var configuration = base
        configuration.key = databaseKey
        configuration.cipherSettings = cipherSettings
        return configuration
    }

    /// What kind of key it is, never the key.
    public var description: String { "TestKey(\(kind))" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the key (for `dump`).
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
