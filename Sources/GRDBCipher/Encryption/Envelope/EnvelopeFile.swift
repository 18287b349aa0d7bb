import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The content of an envelope file, version 1: a JSON object.
///
/// ```json
/// {"format": "GRDBCipher key envelope", "version": 1,
///  "databaseSalt": "<32 hex digits: the database file's first 16 bytes>",
///  "keyEncryptionKey": {"kind": "passphrase", "kdf": "scrypt", "n": 131072, "r": 8, "p": 1,
///                       "salt": "<32 hex digits>"},          // or {"kind": "raw key"}
///  "created": "2026-11-27T14:00:00Z", "rewrapped": "2026-11-27T14:00:00Z",
///  "nonce": "<24 hex digits>", "wrappedDataKey": "<96 hex digits: 32 bytes and the GCM tag>"}
/// ```
///
/// The GCM tag authenticates every field but `nonce` and `wrappedDataKey`
/// (see ``authenticatedData``).
struct EnvelopeFile: Codable {
    static let formatName = "GRDBCipher key envelope"
    static let currentVersion = 1

    struct KeyEncryptionKeyInfo: Codable {
        var kind: String
        var kdf: String?
        var n: UInt64?
        var r: UInt64?
        var p: UInt64?
        var salt: String?
    }

    var format: String
    var version: Int
    var databaseSalt: String
    var keyEncryptionKey: KeyEncryptionKeyInfo
    var created: String
    var rewrapped: String
    var nonce: String
    var wrappedDataKey: String

    // MARK: Reading

    /// Reads and parses an envelope.
    ///
    /// - throws: A ``DatabaseEnvelopeError``: `.missing` (the path in the
    ///   message) or `.malformed`.
    static func read(atPath path: String) throws -> EnvelopeFile {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DatabaseEnvelopeError(.missing, "the key envelope \(path) is missing: without it, the database cannot be opened")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DatabaseEnvelopeError(.malformed, "cannot read the key envelope \(path)")
        }
        return try parse(data, shownPath: path)
    }

    /// Parses the bytes of an envelope (`shownPath` names it in messages).
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.malformed`).
    static func parse(_ data: Data, shownPath path: String) throws -> EnvelopeFile {
        guard let envelope = try? JSONDecoder().decode(EnvelopeFile.self, from: data),
              envelope.format == formatName
        else {
            throw DatabaseEnvelopeError(.malformed, "\(path) is not a key envelope, or it is truncated")
        }
        guard envelope.version == currentVersion else {
            throw DatabaseEnvelopeError(.malformed, "the key envelope \(path) has version \(envelope.version), this library reads version \(currentVersion)")
        }
        guard envelope.databaseSaltBytes.count == KeyDerivation.saltLength,
              Self.hexBytes(envelope.nonce)?.count == EnvelopeCrypto.nonceLength,
              Self.hexBytes(envelope.wrappedDataKey)?.count == EnvelopeCrypto.keyLength + EnvelopeCrypto.tagLength,
              Self.date(envelope.created) != nil, Self.date(envelope.rewrapped) != nil
        else {
            throw DatabaseEnvelopeError(.malformed, "the key envelope \(path) is damaged")
        }
        // Its scrypt parameters are bounded before anything uses them.
        _ = try envelope.derivation()
        return envelope
    }

    var databaseSaltBytes: [UInt8] { Self.hexBytes(databaseSalt) ?? [] }
    var createdDate: Date { Self.date(created) ?? Date(timeIntervalSince1970: 0) }
    var rewrappedDate: Date { Self.date(rewrapped) ?? Date(timeIntervalSince1970: 0) }

    /// How the key-encryption key is derived.
    func derivation() throws -> EnvelopeKeyDerivation {
        let info = keyEncryptionKey
        switch info.kind {
        case "raw key":
            return .none
        case "passphrase":
            guard info.kdf == "scrypt", let n = info.n, let r = info.r, let p = info.p,
                  let salt = info.salt.flatMap(Self.hexBytes), !salt.isEmpty
            else { throw DatabaseEnvelopeError(.malformed, "the key envelope's key derivation is damaged") }
            let parameters = ScryptParameters(cost: n, blockSize: r, parallelization: p)
            try parameters.checkBudget()
            return .scrypt(parameters, salt: salt)
        default:
            throw DatabaseEnvelopeError(.malformed, "the key envelope's key-encryption key kind is unknown")
        }
    }

    /// Refuses an envelope made for another file: compares the salt it
    /// recorded with the first 16 bytes of the database file (a file that
    /// does not exist or is empty has none yet).
    func checkBelongs(toDatabaseAt path: String) throws {
        guard let header = DatabaseFileHeader.read(atPath: path, count: KeyDerivation.saltLength),
              header.count == KeyDerivation.saltLength
        else { return }
        guard header == databaseSaltBytes else {
            throw DatabaseEnvelopeError(
                .belongsToAnotherDatabase, "the key envelope of \(path) belongs to another database file")
        }
    }

    /// The data key.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.wrongKeyEncryptionKey`) if
    ///   the tag does not authenticate.
    func unwrap(with keyEncryptionKey: KeyEncryptionKey) throws -> KeyMaterial {
        let (kek, _) = try keyEncryptionKey.resolve(derivation: try derivation())
        let opened = try kek.bytes.withUnsafeBytes { kekBytes in
            try EnvelopeCrypto.open(
                Self.hexBytes(wrappedDataKey) ?? [], key: kekBytes, nonce: Self.hexBytes(nonce) ?? [],
                authenticated: authenticatedData)
        }
        guard let opened, opened.count == EnvelopeCrypto.keyLength else {
            throw DatabaseEnvelopeError(
                .wrongKeyEncryptionKey, "the key-encryption key does not open the key envelope (wrong key, or the envelope was altered)")
        }
        return opened
    }

    /// The database's raw key: the data key and the file's salt.
    func databaseKey(_ dataKey: KeyMaterial) throws -> DatabaseKey {
        let salt = databaseSaltBytes
        return dataKey.bytes.withUnsafeBytes { keyBytes in
            salt.withUnsafeBytes { saltBytes in
                DatabaseKey(material: KeyMaterial.rawKeySpecification(key: keyBytes, salt: saltBytes))
            }
        }
    }

    // MARK: Writing

    /// A new envelope of `dataKey`, wrapped by `keyEncryptionKey` with a
    /// fresh nonce (and a fresh scrypt salt for a passphrase).
    static func wrapping(
        _ dataKey: KeyMaterial, databaseSalt: [UInt8], keyEncryptionKey: KeyEncryptionKey, created: Date
    ) throws -> EnvelopeFile {
        let (kek, derivation) = try keyEncryptionKey.resolve(derivation: nil)
        let info: KeyEncryptionKeyInfo = switch derivation {
        case .none: KeyEncryptionKeyInfo(kind: "raw key")
        case .scrypt(let parameters, let salt):
            KeyEncryptionKeyInfo(
                kind: "passphrase", kdf: "scrypt", n: parameters.cost, r: parameters.blockSize,
                p: parameters.parallelization, salt: hex(salt))
        }
        let nonce = try EnvelopeCrypto.randomBytes(EnvelopeCrypto.nonceLength)
        var envelope = EnvelopeFile(
            format: formatName, version: currentVersion, databaseSalt: hex(databaseSalt), keyEncryptionKey: info,
            created: dateString(created), rewrapped: dateString(Date()), nonce: hex(nonce), wrappedDataKey: "")
        let sealed = try kek.bytes.withUnsafeBytes { kekBytes in
            try dataKey.bytes.withUnsafeBytes { keyBytes in
                try EnvelopeCrypto.seal(keyBytes, key: kekBytes, nonce: nonce, authenticated: envelope.authenticatedData)
            }
        }
        envelope.wrappedDataKey = hex(sealed)
        return envelope
    }

    /// Writes the envelope at `path`: a temporary file created 0600 beside
    /// it, synced, then renamed over `path` (`replacing`) or linked to
    /// `path`, which fails if it exists (`!replacing`); and the folder
    /// synced. The caller holds the database's ``KeyChangeLock``.
    ///
    /// - throws: A ``DatabaseEnvelopeError``: `.invalidKey` if `path`
    ///   exists and may not be replaced, `.cryptoFailure` if a file
    ///   operation fails (nothing is left at `path` then, but what was
    ///   there).
    func write(toPath path: String, replacing: Bool) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        Self.removeStaleTemporaries(of: path)
        let temporary = path + ".tmp-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DatabaseEnvelopeError(.cryptoFailure, "cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        var written = 0
        let status: Int = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 { return -1 }
                written += count
            }
            return fsync(descriptor) == 0 ? 0 : -1
        }
        let error = errno
        let closed = close(descriptor)
        guard status == 0, closed == 0 else {
            unlink(temporary)
            throw DatabaseEnvelopeError(.cryptoFailure, "cannot write \(temporary): \(String(cString: strerror(status == 0 ? errno : error)))")
        }
        if replacing {
            guard rename(temporary, path) == 0 else {
                let error = errno
                unlink(temporary)
                throw DatabaseEnvelopeError(.cryptoFailure, "cannot rename \(temporary): \(String(cString: strerror(error)))")
            }
        } else {
            let outcome: FileSystem.ExclusiveRename
            do {
                outcome = try FileSystem.renameWithoutReplacing(temporary, to: path)
            } catch {
                unlink(temporary)
                throw DatabaseEnvelopeError(.cryptoFailure, "\(error)")
            }
            switch outcome {
            case .renamed:
                break
            case .destinationExists:
                unlink(temporary)
                throw DatabaseEnvelopeError(.invalidKey, "\(path) already exists: an envelope is never replaced")
            case .unsupported:
                // link(2) refuses an existing path too; a crash before the
                // unlink leaves a temporary that the next write removes.
                let linked = link(temporary, path)
                let error = errno
                unlink(temporary)
                guard linked == 0 else {
                    if error == EEXIST {
                        throw DatabaseEnvelopeError(.invalidKey, "\(path) already exists: an envelope is never replaced")
                    }
                    throw DatabaseEnvelopeError(.cryptoFailure, "cannot create \(path): \(String(cString: strerror(error)))")
                }
            }
        }
        try FileDurability.syncDirectory(containing: path)
    }

    /// Removes the temporary files that a process killed while writing an
    /// envelope at `path` left behind (they hold a wrapped key, never a
    /// clear one). The caller holds the database's ``KeyChangeLock``: no
    /// other write is under way.
    static func removeStaleTemporaries(of path: String) {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + ".tmp-"
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// What the GCM tag authenticates besides the data key: every field but
    /// the nonce and the wrapped key, in a fixed order.
    var authenticatedData: [UInt8] {
        let info = keyEncryptionKey
        let fields: [String] = [
            format, String(version), databaseSalt, info.kind, info.kdf ?? "", info.n.map(String.init) ?? "",
            info.r.map(String.init) ?? "", info.p.map(String.init) ?? "", info.salt ?? "", created, rewrapped,
        ]
        return Array(fields.joined(separator: "\n").utf8)
    }

    // MARK: Encodings

    static func hex(_ bytes: [UInt8]) -> String { bytes.hexString }

    static func hexBytes(_ text: String) -> [UInt8]? { [UInt8](hexString: text) }

    private static func dateString(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    static func date(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }
}
