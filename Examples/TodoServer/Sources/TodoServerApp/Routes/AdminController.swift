import Foundation
import GRDBCipher
import Hummingbird
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The admin routes, registered only when an admin token is configured:
/// `POST /admin/rotate-key` (online key rotation) and `POST /admin/backup`
/// (online backup to an encrypted file). Each needs
/// `Authorization: Bearer <TODOSERVER_ADMIN_TOKEN>`; one runs at a time
/// (a second one gets 409).
struct AdminController: Sendable {
    let database: DatabasePool
    let keyState: KeyState
    let adminToken: AdminToken
    let backupDirectory: String
    let busy = AdminLock()

    func addRoutes(to router: Router<BasicRequestContext>) {
        let group = router.group("admin")
        group.post("rotate-key", use: rotateKey)
        group.post("backup", use: backup)
    }

    /// The body of `POST /admin/rotate-key`: `{"newPassphrase": "…"}`. The new
    /// passphrase travels in the body, never in the URL (URLs reach logs).
    struct RotateKey: Decodable {
        var newPassphrase: String

        enum CodingKeys: String, CodingKey { case newPassphrase }

        init(from decoder: any Decoder) throws {
            try rejectUnknownKeys(decoder, allowed: ["newPassphrase"])
            let container = try decoder.container(keyedBy: CodingKeys.self)
            newPassphrase = try container.decode(String.self, forKey: .newPassphrase)
            if newPassphrase.count < 8 {
                throw InputError("newPassphrase must have at least 8 characters")
            }
        }
    }

    /// The answer of `POST /admin/rotate-key`.
    struct Rotated: ResponseEncodable, Sendable {
        var rotated: Bool
        var note: String
    }

    /// The answer of `POST /admin/backup`.
    struct BackedUp: ResponseEncodable, Sendable {
        var path: String
        var pageCount: Int
    }

    /// Re-encrypts the database with a new passphrase while requests run:
    /// running reads finish, new reads and writes wait until it is done.
    @Sendable func rotateKey(_ request: Request, context: BasicRequestContext) async throws -> Rotated {
        try adminToken.authorize(request)
        let input = try await decodeBody(RotateKey.self, from: request)
        switch keyState.encryption {
        case .plaintext:
            throw HTTPError(.conflict, message: "the database is not encrypted")
        case .envelope(let current):
            return try await rewrap(from: current, to: input.newPassphrase, context: context)
        case .passphrase:
            break
        }
        return try await busy.run {
            let clock = ContinuousClock()
            let start = clock.now
            do {
                try await database.changePassphrase(input.newPassphrase)
            } catch {
                context.logger.error("admin: key rotation failed, the current key still opens the database: \(error)")
                throw HTTPError(.internalServerError, message: "key rotation failed; the database still opens with the current passphrase")
            }
            keyState.rotated(to: input.newPassphrase)
            context.logger.notice("admin: the database key was rotated in \(clock.now - start)")
            return Rotated(
                rotated: true,
                note: "the database now opens only with the new passphrase: store it where the server reads its key before the next restart")
        }
    }

    /// Rotates the key-encryption key of an enveloped database: the data
    /// key is wrapped under the new passphrase, and no page of the database
    /// changes (it takes the time of two key derivations).
    private func rewrap(from current: KeyEncryptionKey, to newPassphrase: String, context: BasicRequestContext) async throws -> Rotated {
        let path = database.path
        return try await busy.run {
            let clock = ContinuousClock()
            let start = clock.now
            let new = KeyEncryptionKey.passphrase(newPassphrase)
            do {
                try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: current, to: new)
            } catch {
                context.logger.error("admin: rewrap failed, the current key-encryption key still opens the envelope: \(error)")
                throw HTTPError(
                    .internalServerError, message: "rewrap failed; the envelope still opens with the current key-encryption key")
            }
            keyState.rewrapped(to: new)
            context.logger.notice("admin: the data key was rewrapped in \(clock.now - start)")
            return Rotated(
                rotated: true,
                note: "the envelope now opens only with the new passphrase: store it in GRDBCIPHER_KEK_FILE before the next restart")
        }
    }

    /// Copies the database, as of one moment, into a new encrypted file of
    /// the backup folder while writes continue. The file is `0600`; once it
    /// is renamed to its final name, the folder is synced, so that the name
    /// survives a power loss.
    @Sendable func backup(_ request: Request, context: BasicRequestContext) async throws -> EditedResponse<BackedUp> {
        try adminToken.authorize(request)
        let encryption = keyState.encryption
        let answer = try await busy.run {
            let fileManager = FileManager.default
            try fileManager.createDirectory(
                atPath: backupDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            let name = "todos-\(formatter.string(from: Date()))-\(UUID().uuidString.prefix(8).lowercased()).sqlite"
            let path = (backupDirectory as NSString).appendingPathComponent(name)
            let partial = (backupDirectory as NSString).appendingPathComponent(".\(name).partial")
            let pages = Mutex(0)
            do {
                if case .envelope(let kek) = encryption {
                    // The library's enveloped backup: the same data key and
                    // salt, its envelope copied first (0600, synced), under
                    // the database's key-change lock, so that no rotation or
                    // rewrap runs meanwhile.
                    try await database.backupWithEnvelope(to: path, keyEncryptionKey: kek, pagesPerStep: 256) { progress in
                        pages.withLock { $0 = progress.totalPageCount }
                    }
                } else {
                    var config = TodoDatabase.poolConfiguration(
                        ServerConfiguration(databasePath: path, encryption: encryption), encryption: encryption, dataKey: nil)
                    config.maximumReaderCount = 1
                    let destination = try DatabaseQueue(path: partial, configuration: config)
                    try await database.backup(to: destination, pagesPerStep: 256) { progress in
                        pages.withLock { $0 = progress.totalPageCount }
                    }
                    try await destination.close()
                    try fileManager.moveItem(atPath: partial, toPath: path)
                }
            } catch {
                for suffix in ["", "-wal", "-shm", "-journal"] { try? fileManager.removeItem(atPath: partial + suffix) }
                context.logger.error("admin: backup failed: \(error)")
                throw HTTPError(.internalServerError, message: "backup failed")
            }
            do {
                try syncDirectory(backupDirectory)
            } catch {
                context.logger.error("admin: the backup \(path) is written, but its folder cannot be synced: \(error)")
                throw HTTPError(.internalServerError, message: "backup written, but not known to be durable")
            }
            context.logger.notice("admin: backed up \(pages.withLock { $0 }) pages to \(path)")
            return BackedUp(path: path, pageCount: pages.withLock { $0 })
        }
        return EditedResponse(status: .created, response: answer)
    }
}

/// One admin operation at a time: a rotation during a backup (or two
/// rotations) would only wait, or race for the key to record.
final class AdminLock: Sendable {
    private let running = Mutex(false)

    /// Runs `body` unless another operation runs (then 409).
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let acquired = running.withLock { running in
            if running { return false }
            running = true
            return true
        }
        guard acquired else {
            throw HTTPError(.conflict, message: "another admin operation is running")
        }
        defer { running.withLock { $0 = false } }
        return try await body()
    }
}

/// Flushes a folder's entries (a rename into it) to stable storage.
///
/// - throws: A `POSIXError` when the folder cannot be opened or synced.
func syncDirectory(_ path: String) throws {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
