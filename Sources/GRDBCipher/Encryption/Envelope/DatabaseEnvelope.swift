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
    /// empty) and has no envelope gets a new data key and a new envelope;
    /// two processes that start on one new path at once get the same key.
    /// A data-key rotation that a crash interrupted is completed or undone
    /// first (see ``Recovery``).
    ///
    /// It waits for any other key or envelope operation on the same file to
    /// finish (see <doc:KeyRotation>).
    ///
    /// - throws: A ``DatabaseEnvelopeError``: the envelope is missing,
    ///   malformed, of another database, or the key-encryption key does not
    ///   open it (or its command failed); a ``DatabaseError``
    ///   (`SQLITE_BUSY`) if another operation kept the file's key-change
    ///   lock too long. Nothing changes on disk then.
    public static func unwrap(
        forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey, creatingIfMissing: Bool = false
    ) throws -> Unwrapped {
        try KeyChangeLock.run(forDatabaseAt: path, operation: "unwrap the key of", held: nil) { held in
            try unwrap(forDatabaseAt: path, keyEncryptionKey: keyEncryptionKey, creatingIfMissing: creatingIfMissing, held: held)
        }
    }

    /// ``unwrap(forDatabaseAt:keyEncryptionKey:creatingIfMissing:)`` under
    /// the key-change lock, which the caller holds.
    static func unwrap(
        forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey, creatingIfMissing: Bool, held: KeyChangeLock.Held
    ) throws -> Unwrapped {
        let envelopePath = Self.path(forDatabaseAt: path)
        EnvelopeFile.removeStaleTemporaries(of: envelopePath)
        EnvelopeFile.removeStaleTemporaries(of: Self.nextPath(forDatabaseAt: path))
        if creatingIfMissing, !FileManager.default.fileExists(atPath: envelopePath), databaseIsEmpty(at: path) {
            let key = try create(forDatabaseAt: path, keyEncryptionKey: keyEncryptionKey, held: held)
            return Unwrapped(key: key, created: true, recovery: nil)
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
    /// database with. The envelope is created exclusively: it never
    /// replaces one.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` if the database already holds
    ///   data or already has an envelope, or if writing the envelope fails;
    ///   a ``DatabaseError`` (`SQLITE_BUSY`) if another operation kept the
    ///   file's key-change lock too long.
    public static func create(forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey) throws -> DatabaseKey {
        try KeyChangeLock.run(forDatabaseAt: path, operation: "create the envelope of", held: nil) { held in
            try create(forDatabaseAt: path, keyEncryptionKey: keyEncryptionKey, held: held)
        }
    }

    private static func create(
        forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey, held: KeyChangeLock.Held
    ) throws -> DatabaseKey {
        guard databaseIsEmpty(at: path) else {
            throw DatabaseEnvelopeError(.invalidKey, "the database \(path) already holds data: it has a key")
        }
        guard !FileManager.default.fileExists(atPath: Self.path(forDatabaseAt: path)) else {
            throw DatabaseEnvelopeError(.invalidKey, "the database \(path) already has an envelope")
        }
        let salt = try EnvelopeCrypto.randomBytes(KeyDerivation.saltLength)
        let dataKey = try newDataKey()
        let envelope = try EnvelopeFile.wrapping(dataKey, databaseSalt: salt, keyEncryptionKey: keyEncryptionKey, created: Date())
        try envelope.write(toPath: Self.path(forDatabaseAt: path), replacing: false)
        return try envelope.databaseKey(dataKey)
    }

    /// Encrypts a plaintext database under a new data key, and writes its
    /// envelope. The envelope is written first; then the encrypted copy is
    /// written beside the file, checked, and renamed over it, while SQLite's
    /// exclusive lock on the file keeps every other connection out from
    /// before the copy until after the rename (as
    /// `DatabaseFile.reencrypt(atPath:key:settings:newKey:newSettings:)`
    /// does): no commit of another process is lost. A crash leaves the
    /// plaintext file (and, maybe, its envelope: a new call opens it with
    /// `keyEncryptionKey` and uses its key, and never replaces it) or the
    /// encrypted file and its envelope.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.invalidKey`) if the file is
    ///   not a plaintext database, `.wrongKeyEncryptionKey` if an envelope
    ///   left by an earlier call is not opened by `keyEncryptionKey`, or a
    ///   ``DatabaseError`` (`SQLITE_BUSY` when another connection has the
    ///   file open); the file is unchanged then.
    public static func encrypt(plaintextDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey) throws {
        try KeyChangeLock.run(forDatabaseAt: path, operation: "encrypt", held: nil) { held in
            guard FileManager.default.fileExists(atPath: path), try !DatabaseFile.isEncrypted(atPath: path) else {
                throw DatabaseEnvelopeError(.invalidKey, "\(path) is not a plaintext database")
            }
            let envelopePath = Self.path(forDatabaseAt: path)
            EnvelopeFile.removeStaleTemporaries(of: envelopePath)
            let key: DatabaseKey
            if FileManager.default.fileExists(atPath: envelopePath) {
                // Left by a call that did not finish: it protects nothing yet.
                let envelope = try EnvelopeFile.read(atPath: envelopePath)
                key = try envelope.databaseKey(try envelope.unwrap(with: keyEncryptionKey))
            } else {
                let salt = try EnvelopeCrypto.randomBytes(KeyDerivation.saltLength)
                let dataKey = try newDataKey()
                let envelope = try EnvelopeFile.wrapping(
                    dataKey, databaseSalt: salt, keyEncryptionKey: keyEncryptionKey, created: Date())
                try envelope.write(toPath: envelopePath, replacing: false)
                key = try envelope.databaseKey(dataKey)
            }
            let target = try InPlaceTarget.resolve(path, operation: "encrypt")
            try DatabaseFile.rewriteInPlace(
                target: target, shownPath: path, key: nil, settings: CipherSettings(),
                into: .encrypted(key: key, settings: CipherSettings()), operation: "encrypt", held: held)
        }
    }

    /// Wraps the data key under a new key-encryption key. No page of the
    /// database is read or written; the envelope is replaced atomically.
    /// A data-key rotation that a crash interrupted is completed or undone
    /// first, so that the key wrapped is the one that opens the file.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` if `old` does not open the
    ///   envelope, `new` cannot be resolved, or the envelope cannot be
    ///   written; a ``DatabaseError`` (`SQLITE_BUSY`) if another operation
    ///   kept the file's key-change lock too long. The old envelope stays
    ///   in place then.
    public static func rewrap(forDatabaseAt path: String, from old: KeyEncryptionKey, to new: KeyEncryptionKey) throws {
        try KeyChangeLock.run(forDatabaseAt: path, operation: "rewrap the key of", held: nil) { held in
            _ = try unwrap(forDatabaseAt: path, keyEncryptionKey: old, creatingIfMissing: false, held: held)
            let envelopePath = Self.path(forDatabaseAt: path)
            let envelope = try EnvelopeFile.read(atPath: envelopePath)
            let dataKey = try envelope.unwrap(with: old)
            let rewrapped = try EnvelopeFile.wrapping(
                dataKey, databaseSalt: envelope.databaseSaltBytes, keyEncryptionKey: new, created: envelope.createdDate)
            try rewrapped.write(toPath: envelopePath, replacing: true)
        }
    }

    /// Replaces the data key: the database is re-encrypted with a new one
    /// (the safe rotation of ``Database/changeKey(_:)``, proved by a fresh
    /// connection), and the envelope replaced. The new envelope is written
    /// first, beside the old one (`<database>.envelope-next`), and removed
    /// only once the old key is proven to read the file: if the process dies
    /// or fails before the end, the next
    /// ``unwrap(forDatabaseAt:keyEncryptionKey:creatingIfMissing:)`` or
    /// ``rewrap(forDatabaseAt:from:to:)`` finds which key opens the file and
    /// completes or undoes the rotation.
    ///
    /// No other connection may use the database meanwhile: it refuses a file
    /// that another process keeps open (`SQLITE_BUSY`, after 5 seconds), and
    /// other key and envelope operations wait for it.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` or a ``DatabaseError``; the
    ///   database and its envelope keep the old key then, unless the message
    ///   says that neither key could be proven: both envelopes stay then, and
    ///   the next unwrap decides.
    public static func rotateDataKey(forDatabaseAt path: String, keyEncryptionKey: KeyEncryptionKey) throws {
        try KeyChangeLock.run(forDatabaseAt: path, operation: "rotate the data key of", held: nil) { held in
            let unwrapped = try unwrap(forDatabaseAt: path, keyEncryptionKey: keyEncryptionKey, creatingIfMissing: false, held: held)
            let current = try EnvelopeFile.read(atPath: Self.path(forDatabaseAt: path))
            // Another process's connections would go on with the old key.
            try DatabaseFileLock(
                path: path, shownPath: path, operation: "rotate the data key of", timeout: ExclusiveConnection.busyTimeout
            ).release()
            let newKey = try newDataKey()
            let next = try EnvelopeFile.wrapping(
                newKey, databaseSalt: current.databaseSaltBytes, keyEncryptionKey: keyEncryptionKey, created: current.createdDate)
            let nextPath = Self.nextPath(forDatabaseAt: path)
            try next.write(toPath: nextPath, replacing: false)
            let nextKey = try next.databaseKey(newKey)
            do {
                var configuration = Configuration()
                configuration.key = unwrapped.key
                let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
                do {
                    try dbQueue.writer.sync { try $0.rekey(nextKey.material, held: held) }
                    try dbQueue.close()
                } catch {
                    try? dbQueue.close()
                    throw error
                }
            } catch {
                // The new key's envelope goes only once the old key is proven
                // to read the file; it is installed if the new key does.
                switch FileKeyProof.check(path: path, key: unwrapped.key.material, settings: [], usesURI: false) {
                case .reads:
                    try? FileManager.default.removeItem(atPath: nextPath)
                    try? FileDurability.syncDirectory(containing: nextPath)
                    throw error
                case .refused, .failed:
                    guard case .reads = FileKeyProof.check(path: path, key: nextKey.material, settings: [], usesURI: false)
                    else { throw error }
                }
            }
            try install(nextPath, forDatabaseAt: path)
        }
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
