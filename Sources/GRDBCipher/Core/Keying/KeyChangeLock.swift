import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one advisory lock that every operation which changes a database
/// file's key, envelope or layout takes: a passphrase or key change (queue,
/// pool or connection), a copy and swap (re-encryption, upgrade, an export
/// that replaces a file, `DatabaseFile.replace`), and every envelope
/// operation (create, unwrap and its recovery, rewrap, data-key rotation,
/// encryption of a plaintext file, enveloped copies). Two such operations on
/// one file, in one process or in two, run one after the other, so that no
/// operation reads a key or an envelope that another is about to replace.
///
/// The lock is `flock(2)` on `<database>.keylock`, an empty file (0600)
/// beside the database that exists while an operation holds it: the holder
/// removes it before it unlocks, and a caller that locked a file which is no
/// longer the one at that path (removed meanwhile) starts again. A process
/// killed while it held the lock leaves the file, unlocked; the next
/// operation uses it and removes it. The file is not the database's: a
/// descriptor of our own on the database would drop SQLite's POSIX locks of
/// this process when closed. Its name derives from the database's real
/// path, so a symbolic link and its target share one lock. Each acquisition
/// opens the lock file afresh, and `flock` locks belong to an open file: two
/// threads of one process exclude each other too. An operation that runs
/// another one under its lock passes ``Held`` along instead of locking twice.
///
/// The lock does not keep ordinary readers and writers out; the operations
/// that need the file to themselves also take SQLite's own locks.
final class KeyChangeLock {
    /// How long an operation waits for another one to finish: a data-key
    /// rotation re-encrypts every page, a few seconds per gigabyte.
    static let defaultTimeout: TimeInterval = 600

    /// Proof that the caller holds the lock of a database.
    struct Held: Sendable {
        /// The lock file.
        let lockPath: String
    }

    private let descriptor: CInt
    let held: Held

    /// The lock file of the database at `databasePath`.
    static func lockPath(forDatabaseAt databasePath: String) -> String {
        canonicalPath(databasePath) + ".keylock"
    }

    /// Takes the lock of the database at `databasePath`, waiting up to
    /// `timeout` seconds for another operation to release it.
    ///
    /// - parameter operation: What needs it ("rotate the data key of"), for messages.
    /// - throws: A ``DatabaseError``: `SQLITE_BUSY` when another operation
    ///   kept it for `timeout` seconds, `SQLITE_CANTOPEN` when the lock file
    ///   cannot be created.
    init(forDatabaseAt databasePath: String, operation: String, timeout: TimeInterval = defaultTimeout) throws {
        let lockPath = Self.lockPath(forDatabaseAt: databasePath)
        let deadline = Date() + timeout
        while true {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                throw FileSystem.systemError(
                    "cannot \(operation) \(databasePath): cannot open its lock file \(lockPath)", code: .SQLITE_CANTOPEN)
            }
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let error = errno
                guard error == EWOULDBLOCK || error == EINTR else {
                    close(descriptor)
                    errno = error
                    throw FileSystem.systemError(
                        "cannot \(operation) \(databasePath): cannot lock \(lockPath)", code: .SQLITE_IOERR_LOCK)
                }
                guard Date() < deadline else {
                    close(descriptor)
                    throw DatabaseError(
                        resultCode: .SQLITE_BUSY,
                        message: "cannot \(operation) \(databasePath): another key or envelope operation on it has run "
                            + "for more than \(Int(timeout)) seconds (a key change, a rotation, a rewrap, a copy and swap)")
                }
                usleep(2_000)
            }
            // The holder before us may have removed the file we locked.
            var locked = stat()
            var named = stat()
            if fstat(descriptor, &locked) == 0, stat(lockPath, &named) == 0,
               locked.st_dev == named.st_dev, locked.st_ino == named.st_ino
            {
                self.descriptor = descriptor
                self.held = Held(lockPath: lockPath)
                return
            }
            close(descriptor)
        }
    }

    private var isHeld = true

    /// Releases the lock. Idempotent.
    func release() {
        guard isHeld else { return }
        isHeld = false
        // Removed while locked: a waiter that gets this file next sees that
        // the path names another, or none, and starts again.
        unlink(held.lockPath)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    deinit {
        release()
    }

    /// Runs `body` under the lock of the database at `databasePath`, unless
    /// the caller holds it already (`held`).
    static func run<T>(
        forDatabaseAt databasePath: String, operation: String, held: Held?, _ body: (Held) throws -> T
    ) throws -> T {
        if let held {
            precondition(
                held.lockPath == lockPath(forDatabaseAt: databasePath),
                "KeyChangeLock: the lock held is another database's")
            return try body(held)
        }
        let lock = try KeyChangeLock(forDatabaseAt: databasePath, operation: operation)
        defer { lock.release() }
        return try body(lock.held)
    }

    /// ``run(forDatabaseAt:operation:held:_:)`` for a connection's database:
    /// an in-memory database, or one opened by URI, has no file of its own
    /// to lock, and runs `body` at once.
    static func runIfFile<T>(
        forDatabaseAt databasePath: String, usesURI: Bool, operation: String, held: Held?, _ body: () throws -> T
    ) throws -> T {
        guard !databasePath.isEmpty, databasePath != ":memory:", !usesURI else { return try body() }
        return try run(forDatabaseAt: databasePath, operation: operation, held: held) { _ in try body() }
    }

    /// The real path of `path`, or of its folder followed by its name when
    /// the file does not exist yet.
    static func canonicalPath(_ path: String) -> String {
        if let resolved = InPlaceTarget.realPath(path) { return resolved }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        guard let resolvedFolder = InPlaceTarget.realPath(folder) else { return url.path }
        return (resolvedFolder as NSString).appendingPathComponent(url.lastPathComponent)
    }
}
