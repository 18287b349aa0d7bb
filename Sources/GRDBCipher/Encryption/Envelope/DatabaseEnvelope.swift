import Foundation

/// Envelope encryption of a database: a random data key is the file's raw
/// SQLCipher key, and it is stored only wrapped (AES-256-GCM) by a
/// key-encryption key (see ``KeyEncryptionKey``) in a small file beside the
/// database, `<database>.envelope`. Changing the key-encryption key
/// (``rewrap(forDatabaseAt:from:to:)``) rewrites that small file and no page
/// of the database: it takes milliseconds whatever the size of the data.
///
/// ```swift
/// let kek = try KeyEncryptionKey.passphraseFile(atPath: "/run/secrets/kek")
/// var config = Configuration()
/// config.key = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: kek,
///                                          creatingIfMissing: true).key
/// let dbPool = try DatabasePool(path: path, configuration: config)
/// ```
///
/// **Losing the envelope loses the data.** The data key exists nowhere else:
/// back the envelope up with the database (`backupWithEnvelope(to:keyEncryptionKey:)`
/// and `exportWithEnvelope(to:keyEncryptionKey:)` copy it along; GRDB's
/// `backup(to:)` and `export(to:encryption:)` do not), and keep the
/// key-encryption key where your secrets live.
///
/// The envelope is a UTF-8 JSON object (see <doc:EncryptionModel>): its
/// format name and version, the database file's salt, how the
/// key-encryption key is derived (scrypt parameters and salt, or none), the
/// dates of creation and of the last rewrap, the nonce, and the wrapped data
/// key with its GCM tag. Every field but the nonce and the wrapped key is
/// authenticated by the tag: an edited envelope does not open. It is written
/// with permissions 0600 to a temporary file, synced, renamed over the old
/// one, and its folder synced: a crash leaves the old or the new envelope.
public enum DatabaseEnvelope {
    /// The path of the envelope of the database at `databasePath`.
    public static func path(forDatabaseAt databasePath: String) -> String {
        databasePath + ".envelope"
    }

    /// The envelope of a data-key rotation that has not completed yet.
    static func nextPath(forDatabaseAt databasePath: String) -> String {
        databasePath + ".envelope-next"
    }

    /// The data key of a database, unwrapped.
    public struct Unwrapped: Sendable {
        /// The raw key of the database file, for ``Configuration/key``.
        public let key: DatabaseKey
        /// Set when the envelope was created by this call.
        public let created: Bool
        /// Set when this call finished or undid a data-key rotation that a
        /// crash interrupted.
        public let recovery: Recovery?
    }

    /// What ``unwrap(forDatabaseAt:keyEncryptionKey:creatingIfMissing:)``
    /// found of an interrupted ``rotateDataKey(forDatabaseAt:keyEncryptionKey:)``.
    public enum Recovery: Sendable, Equatable {
        /// The database had been re-encrypted under the new data key: its
        /// envelope is now in place.
        case completedDataKeyRotation
        /// The database was still under the old data key: the new key's
        /// envelope was removed.
        case discardedDataKeyRotation
    }

    /// Unwraps the data key of the database at `path`.
    ///
    /// The envelope is checked against the database file before any page is
    /// read: an envelope of another database is refused. With
    /// `creatingIfMissing`, a database file that does not exist (or is
    /// empty) and has no envelope gets a new data key and a new envelope.
    ///
    /// - throws: A ``DatabaseEnvelopeError``: the envelope is missing,
    ///   malformed, of another database, or the key-encryption key does not
    ///   open it (or its command failed). Nothing changes on disk then.
    public static func unwrap(
        forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey, creatingIfMissing: Bool = false
    ) throws -> Unwrapped {
        let envelopePath = Self.path(forDatabaseAt: path)
        if creatingIfMissing, !FileManager.default.fileExists(atPath: envelopePath), databaseIsEmpty(at: path) {
            return Unwrapped(key: try create(forDatabaseAt: path, keyEncryptionKey: keyEncryptionKey), created: true, recovery: nil)
        }
        let envelope = try EnvelopeFile.read(atPath: envelopePath)
        try envelope.checkBelongs(toDatabaseAt: path)
        let dataKey = try envelope.unwrap(with: keyEncryptionKey)
        let nextPath = Self.nextPath(forDatabaseAt: path)
        guard FileManager.default.fileExists(atPath: nextPath) else {
            return Unwrapped(key: try envelope.databaseKey(dataKey), created: false, recovery: nil)
        }
        return try recoverRotation(forDatabaseAt: path, current: envelope, dataKey: dataKey, keyEncryptionKey: keyEncryptionKey)
    }

    /// Creates a new data key and its envelope for a database file that does
    /// not exist yet (or is empty), and returns the key to create the
    /// database with.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` if the database already holds
    ///   data or already has an envelope, or if writing the envelope fails.
    public static func create(forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey) throws -> DatabaseKey {
        guard databaseIsEmpty(at: path) else {
            throw DatabaseEnvelopeError(.invalidKey, "the database \(path) already holds data: it has a key")
        }
        guard !FileManager.default.fileExists(atPath: Self.path(forDatabaseAt: path)) else {
            throw DatabaseEnvelopeError(.invalidKey, "the database \(path) already has an envelope")
        }
        let salt = try EnvelopeCrypto.randomBytes(KeyDerivation.saltLength)
        let dataKey = try newDataKey()
        let envelope = try EnvelopeFile.wrapping(dataKey, databaseSalt: salt, keyEncryptionKey: keyEncryptionKey, created: Date())
        try envelope.write(toPath: Self.path(forDatabaseAt: path))
        return try envelope.databaseKey(dataKey)
    }

    /// Encrypts a plaintext database under a new data key, and writes its
    /// envelope. The encrypted copy is written beside the file, checked,
    /// then renamed over it: a crash leaves the plaintext file (with, maybe,
    /// an envelope that a new call replaces: it protects nothing yet) or the
    /// encrypted file and its envelope.
    ///
    /// Run it while no other connection uses the database.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.invalidKey`) if the file is
    ///   not a plaintext database, or a ``DatabaseError``; the file is
    ///   unchanged then.
    public static func encrypt(plaintextDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey) throws {
        guard FileManager.default.fileExists(atPath: path), try !DatabaseFile.isEncrypted(atPath: path) else {
            throw DatabaseEnvelopeError(.invalidKey, "\(path) is not a plaintext database")
        }
        let salt = try EnvelopeCrypto.randomBytes(KeyDerivation.saltLength)
        let dataKey = try newDataKey()
        let envelope = try EnvelopeFile.wrapping(dataKey, databaseSalt: salt, keyEncryptionKey: keyEncryptionKey, created: Date())
        let temporary = path + ".encrypting-\(UUID().uuidString)"
        let source = try DatabaseQueue(path: path)
        do {
            try source.export(to: temporary, encryption: .encrypted(key: envelope.databaseKey(dataKey), settings: CipherSettings()))
            try source.close()
        } catch {
            try? source.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        do {
            try envelope.write(toPath: Self.path(forDatabaseAt: path))
            try DatabaseFile.replace(atPath: path, with: temporary)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Wraps the data key under a new key-encryption key. No page of the
    /// database is read or written; the envelope is replaced atomically.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` if `old` does not open the
    ///   envelope, `new` cannot be resolved, or the envelope cannot be
    ///   written. The old envelope stays in place then.
    public static func rewrap(forDatabaseAt path: String, from old: KeyEncryptionKey, to new: KeyEncryptionKey) throws {
        let envelopePath = Self.path(forDatabaseAt: path)
        let envelope = try EnvelopeFile.read(atPath: envelopePath)
        try envelope.checkBelongs(toDatabaseAt: path)
        let dataKey = try envelope.unwrap(with: old)
        let rewrapped = try EnvelopeFile.wrapping(
            dataKey, databaseSalt: envelope.databaseSaltBytes, keyEncryptionKey: new, created: envelope.createdDate)
        try rewrapped.write(toPath: envelopePath)
    }

    /// Replaces the data key: the database is re-encrypted with a new one
    /// (the safe rotation of ``Database/changeKey(_:)``, proved by a fresh
    /// connection), and the envelope replaced. The new envelope is written
    /// first, beside the old one: if the process dies before the end, the
    /// next ``unwrap(forDatabaseAt:keyEncryptionKey:creatingIfMissing:)``
    /// finds which key opens the file and completes or undoes the rotation.
    ///
    /// Run it while no other connection uses the database.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` or a ``DatabaseError``; the
    ///   database and its envelope keep the old key then.
    public static func rotateDataKey(forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey) throws {
        let unwrapped = try unwrap(forDatabaseAt: path, keyEncryptionKey: keyEncryptionKey)
        let current = try EnvelopeFile.read(atPath: Self.path(forDatabaseAt: path))
        let newKey = try newDataKey()
        let next = try EnvelopeFile.wrapping(
            newKey, databaseSalt: current.databaseSaltBytes, keyEncryptionKey: keyEncryptionKey, created: current.createdDate)
        let nextPath = Self.nextPath(forDatabaseAt: path)
        try next.write(toPath: nextPath)
        var configuration = Configuration()
        configuration.key = unwrapped.key
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        do {
            try dbQueue.changeKey(try next.databaseKey(newKey))
            try dbQueue.close()
        } catch {
            try? dbQueue.close()
            try? FileManager.default.removeItem(atPath: nextPath)
            throw error
        }
        try install(nextPath, forDatabaseAt: path)
    }

    /// What an envelope says of itself, without any key.
    public struct Info: Sendable {
        /// The envelope's format version.
        public let version: Int
        /// `"passphrase"` or `"raw key"`: what wraps the data key.
        public let keyEncryptionKeyKind: String
        /// The scrypt parameters of a passphrase, nil for a raw key.
        public let scrypt: ScryptParameters?
        /// When the data key was created.
        public let created: Date
        /// When the data key was last wrapped.
        public let rewrapped: Date
    }

    /// Reads what the envelope of the database at `path` says of itself.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` if it is missing or malformed.
    public static func info(forDatabaseAt path: String) throws -> Info {
        let envelope = try EnvelopeFile.read(atPath: Self.path(forDatabaseAt: path))
        let derivation = try envelope.derivation()
        let scrypt: ScryptParameters? = if case .scrypt(let parameters, _) = derivation { parameters } else { nil }
        return Info(
            version: envelope.version, keyEncryptionKeyKind: scrypt == nil ? "raw key" : "passphrase",
            scrypt: scrypt, created: envelope.createdDate, rewrapped: envelope.rewrappedDate)
    }

    // MARK: - Internals

    private static func newDataKey() throws -> KeyMaterial {
        var bytes = try EnvelopeCrypto.randomBytes(EnvelopeCrypto.keyLength)
        defer { bytes.withUnsafeMutableBytes { secureZero($0) } }
        return bytes.withUnsafeBytes { KeyMaterial(copying: $0) }
    }

    private static func databaseIsEmpty(at path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return true }
        return (attributes[.size] as? Int ?? 0) == 0
    }

    /// Renames the envelope at `source` over the database's envelope, and
    /// syncs the folder.
    private static func install(_ source: String, forDatabaseAt path: String) throws {
        let destination = Self.path(forDatabaseAt: path)
        guard rename(source, destination) == 0 else {
            throw DatabaseEnvelopeError(.cryptoFailure, "cannot rename \(source) to \(destination): \(String(cString: strerror(errno)))")
        }
        try FileDurability.syncDirectory(containing: destination)
    }

    /// After a crash during ``rotateDataKey(forDatabaseAt:keyEncryptionKey:)``:
    /// keeps the envelope whose key opens the file.
    private static func recoverRotation(
        forDatabaseAt path: String, current: EnvelopeFile, dataKey: KeyMaterial, keyEncryptionKey: KeyEncryptionKey
    ) throws -> Unwrapped {
        let nextPath = Self.nextPath(forDatabaseAt: path)
        let currentKey = try current.databaseKey(dataKey)
        switch FileKeyProof.check(path: path, key: currentKey.material, settings: [], usesURI: false) {
        case .reads:
            try? FileManager.default.removeItem(atPath: nextPath)
            try FileDurability.syncDirectory(containing: nextPath)
            return Unwrapped(key: currentKey, created: false, recovery: .discardedDataKeyRotation)
        case .refused:
            let next = try EnvelopeFile.read(atPath: nextPath)
            let nextDataKey = try next.unwrap(with: keyEncryptionKey)
            let nextKey = try next.databaseKey(nextDataKey)
            guard case .reads = FileKeyProof.check(path: path, key: nextKey.material, settings: [], usesURI: false) else {
                throw DatabaseEnvelopeError(
                    .wrongKeyEncryptionKey, "neither the envelope nor the envelope of an unfinished rotation opens \(path)")
            }
            try install(nextPath, forDatabaseAt: path)
            return Unwrapped(key: nextKey, created: false, recovery: .completedDataKeyRotation)
        case .failed(let error):
            throw error
        }
    }
}
