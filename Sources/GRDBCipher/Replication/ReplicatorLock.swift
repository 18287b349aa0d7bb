import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock that keeps a second replicator off a database, in this process
/// or another: two would each take the other's checkpoints for gaps, and
/// start generations without end.
///
/// It is `flock(2)` on `<database>.replicator`, an empty file (0600) beside
/// the database, named after its real path, that exists while a replicator
/// runs. The holder removes it before it unlocks; a replicator killed while
/// it held the lock leaves the file, unlocked, and the next one uses it.
final class ReplicatorLock: @unchecked Sendable {
    // Safe: `descriptor` and `isHeld` are only touched by `init` and by
    // `release`, which the replicator calls once, at its end.
    private var descriptor: CInt
    private var isHeld = true
    let path: String

    /// Takes the lock of the database at `databasePath`.
    ///
    /// - throws: ``ReplicaError/unsupported(_:)`` when another replicator
    ///   holds it, ``ReplicaError/store(_:)`` when the lock file cannot be
    ///   created.
    init(forDatabaseAt databasePath: String) throws {
        path = KeyChangeLock.canonicalPath(databasePath) + ".replicator"
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                throw ReplicaError.store("cannot open the lock file \(path): \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                throw ReplicaError.unsupported("another replicator runs on this database (it holds \(path))")
            }
            // The holder before us may have removed the file we locked.
            var locked = stat()
            var named = stat()
            if fstat(descriptor, &locked) == 0, stat(path, &named) == 0,
               locked.st_dev == named.st_dev, locked.st_ino == named.st_ino
            {
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
    }

    /// Releases the lock and removes its file. Idempotent.
    func release() {
        guard isHeld else { return }
        isHeld = false
        unlink(path)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    deinit { release() }
}
