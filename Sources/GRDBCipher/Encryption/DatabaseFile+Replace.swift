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
    /// open makes it fail.
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
    ///   process, or the rename or a sync fails. The database at `path` is
    ///   then unchanged, its WAL included (a failed sync of the folder after
    ///   the rename is reported, though the rename happened).
    public static func replace(atPath path: String, with replacement: String) throws {
        guard let replacementIdentity = FileIdentity(path: replacement) else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot replace \(path): \(replacement) does not exist")
        }
        let folder = (path as NSString).deletingLastPathComponent
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
        if let identity = FileIdentity(path: path), identity == replacementIdentity { return }
        for file in [path, replacement] where OpenDatabaseFiles.isOpen(path: file) {
            throw DatabaseError(
                resultCode: .SQLITE_BUSY,
                message: "cannot replace \(path) with \(replacement): a connection of this process has \(file) "
                    + "open; close its queue, pool or snapshot first")
        }
        try FileDurability.syncFile(atPath: replacement)

        // Set the side files aside rather than delete them: if the rename
        // fails, they go back, and the replaced database loses nothing.
        let token = UUID().uuidString
        var setAside: [(original: String, aside: String)] = []
        func putBack() {
            for file in setAside { rename(file.aside, file.original) }
        }
        for suffix in ["-wal", "-shm", "-journal"] where FileIdentity(path: path + suffix) != nil {
            let original = path + suffix
            let aside = "\(original).replaced-\(token)"
            guard rename(original, aside) == 0 else {
                let error = systemError("cannot set \(original) aside")
                putBack()
                throw error
            }
            setAside.append((original, aside))
        }
        guard rename(replacement, path) == 0 else {
            let error = systemError("cannot move \(replacement) to \(path)")
            putBack()
            throw error
        }
        for file in setAside { unlink(file.aside) }
        try FileDurability.syncDirectory(containing: path)
    }

    static func systemError(_ message: String, code: ResultCode = .SQLITE_IOERR) -> DatabaseError {
        DatabaseError(resultCode: code, message: "\(message): \(String(cString: strerror(errno)))")
    }
}

/// The device and inode of a file: two paths name the same file when they match.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    /// nil when the file does not exist.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        // The field types differ between platforms (signed on Darwin).
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}
