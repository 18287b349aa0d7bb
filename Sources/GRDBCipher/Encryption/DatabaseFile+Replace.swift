import CSQLCipher
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DatabaseFile {
    /// Replaces the database file at `path` with the one at `replacement`,
    /// atomically (a rename). The WAL, shared-memory and journal files of the
    /// replaced database, which would otherwise be applied to the new file,
    /// are removed once the rename succeeded. No connection may have either
    /// database open: a queue, pool or snapshot of this process that has one
    /// open makes it fail, and so does another process that has `path` open
    /// in WAL mode, or in a transaction.
    ///
    /// When `path` is a symbolic link, the file it points to is replaced
    /// (the link still points to it afterwards), and `replacement` must be on
    /// that file's file system. A file with several hard links is refused:
    /// the rename would leave its other names on the old file.
    ///
    /// The rename happens under SQLite's exclusive lock on the replaced file,
    /// which waits up to 5 seconds for other connections to finish. Then the
    /// replaced file is made unreadable: a connection of another process that
    /// still has it open (idle, in rollback-journal mode: it holds no lock
    /// that could be seen) fails with `SQLITE_NOTADB` instead of committing
    /// into a file that no name reaches any longer.
    ///
    /// The replacement's content is synced before the rename, and the folder
    /// after it: once this returns, a power loss cannot bring the old file
    /// (and its old key) back.
    ///
    /// ```swift
    /// try dbPool.export(to: path + ".new", encryption: .encrypted(key: newKey))
    /// try dbPool.close()
    /// try DatabaseFile.replace(atPath: path, with: path + ".new")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if `replacement` is missing, still has a
    ///   WAL or journal (a connection may use it), is on another file system
    ///   (a rename cannot cross file systems), either file is open in this
    ///   process, `path` is open in another process (`SQLITE_BUSY`), has
    ///   several hard links or is a symbolic link to nothing
    ///   (`SQLITE_CANTOPEN`), or the rename or a sync fails. The database at
    ///   `path` is then unchanged, its WAL included (a failed sync of the
    ///   folder after the rename is reported, though the rename happened).
    public static func replace(atPath path: String, with replacement: String) throws {
        try KeyChangeLock.run(forDatabaseAt: path, operation: "replace", held: nil) { _ in
            try replaceLocked(atPath: path, with: replacement)
        }
    }

    private static func replaceLocked(atPath path: String, with replacement: String) throws {
        guard let replacementIdentity = FileIdentity(path: replacement) else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot replace \(path): \(replacement) does not exist")
        }
        let target = try InPlaceTarget.resolveIfPresent(path, operation: "replace")
        let folder = (target as NSString).deletingLastPathComponent
        guard let folderIdentity = FileIdentity(path: folder.isEmpty ? "." : folder) else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot replace \(path): its folder does not exist")
        }
        guard replacementIdentity.device == folderIdentity.device else {
            throw DatabaseError(
                resultCode: .SQLITE_IOERR,
                message: "cannot replace \(path) with \(replacement): they are on different file systems")
        }
        for suffix in ["-wal", "-journal"] where FileIdentity(path: replacement + suffix) != nil {
            throw DatabaseError.misuse(
                "cannot replace \(path) with \(replacement): it has a \(suffix) file; close every connection to it first")
        }
        let targetIdentity = FileIdentity(path: target)
        if let targetIdentity, targetIdentity == replacementIdentity { return }
        for file in [target, replacement] where OpenDatabaseFiles.isOpen(path: file) {
            throw DatabaseError(
                resultCode: .SQLITE_BUSY,
                message: "cannot replace \(path) with \(replacement): a connection of this process has \(file) "
                    + "open; close its queue, pool or snapshot first")
        }
        guard targetIdentity != nil else {
            // Nothing to lock: the rename creates the file.
            try moveIntoPlace(replacement, over: target, shownPath: path, lockedFile: nil)
            return
        }
        try InPlaceTarget.checkSingleLink(target, shownPath: path, operation: "replace")
        let lock = try DatabaseFileLock(
            path: target, shownPath: path, operation: "replace", timeout: ExclusiveConnection.busyTimeout)
        defer { lock.release() }
        try moveIntoPlace(replacement, over: target, shownPath: path, lockedFile: lock.file)
    }

    /// Syncs `replacement`, sets the side files of `path` aside, renames
    /// `replacement` over `path` (a real path), and removes the side files;
    /// on failure, puts them back. With `lockedFile`, SQLite's open file of
    /// the replaced database, which holds its exclusive lock: the replaced
    /// file is made unreadable after the rename (see ``spoil(_:)``).
    static func moveIntoPlace(
        _ replacement: String, over path: String, shownPath: String,
        lockedFile: UnsafeMutablePointer<sqlite3_file>?) throws
    {
        try FileDurability.syncFile(atPath: replacement)
        if lockedFile != nil {
            // Again, just before the rename: a link made meanwhile.
            try InPlaceTarget.checkSingleLink(path, shownPath: shownPath, operation: "replace")
        }

        // Set the side files aside rather than delete them: if the rename
        // fails, they go back, and the replaced database loses nothing.
        var setAside: [(original: String, aside: String)] = []
        func putBack() {
            for file in setAside { rename(file.aside, file.original) }
        }
        for suffix in ["-wal", "-shm", "-journal"] where FileIdentity(path: path + suffix) != nil {
            let original = path + suffix
            let aside = AbandonedFiles.setAsidePath(for: original)
            guard rename(original, aside) == 0 else {
                let error = FileSystem.systemError("cannot set \(original) aside")
                putBack()
                throw error
            }
            setAside.append((original, aside))
        }
        guard rename(replacement, path) == 0 else {
            let error = FileSystem.systemError("cannot move \(replacement) to \(shownPath)")
            putBack()
            throw error
        }
        if let lockedFile { spoil(lockedFile) }
        for file in setAside { unlink(file.aside) }
        try FileDurability.syncDirectory(containing: path)
    }

    /// Overwrites the start of a replaced database file, which no name
    /// reaches any longer, with random bytes, through SQLite's open file (a
    /// descriptor of our own would release the lock when closed).
    ///
    /// A connection of another process that still has the file open holds no
    /// lock when idle in rollback-journal mode: nothing shows it. At its next
    /// transaction it sees that the file changed, reads the first page again,
    /// and fails with `SQLITE_NOTADB` (the page fails its HMAC, or is no
    /// SQLite header), where it would otherwise commit into the replaced
    /// file, to be lost. The bytes are not synced: the file is gone once the
    /// last descriptor closes, and other processes read them from the cache.
    /// Best effort: the rename has happened, and stands, if the write fails.
    private static func spoil(_ file: UnsafeMutablePointer<sqlite3_file>) {
        guard let methods = file.pointee.pMethods?.pointee,
              let fileSize = methods.xFileSize, let write = methods.xWrite else { return }
        var size: sqlite3_int64 = 0
        guard fileSize(file, &size) == SQLITE_OK, size > 0 else { return }
        // Never beyond the end: the file must not grow (a full disk).
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<Int(min(size, 1024))).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        _ = write(file, bytes, CInt(bytes.count), 0)
    }
}
