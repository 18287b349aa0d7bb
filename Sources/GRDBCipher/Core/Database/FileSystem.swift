import CSQLCipher
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the library needs of the file system around database files:
/// creating a file with given permissions, and the errors of system calls.
enum FileSystem {
    /// Creates an empty file with exactly these permission bits (the umask
    /// does not apply). Fails if the file exists.
    static func createEmptyFile(atPath path: String, permissions: Int) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard descriptor >= 0 else {
            throw systemError("cannot create \(path)", code: .SQLITE_CANTOPEN)
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, mode_t(permissions)) == 0 else {
            let error = systemError("cannot set the permissions of \(path)", code: .SQLITE_CANTOPEN)
            unlink(path)
            throw error
        }
    }

    /// The owner of a new file that replaces `path`: the replaced file's
    /// user and group, which only the superuser can always give away.
    struct Owner {
        let user: uid_t
        let group: gid_t

        /// The owner of the file at `path`, nil if there is none.
        init?(ofFileAt path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            user = info.st_uid
            group = info.st_gid
        }

        /// Gives the file at `path` to this owner, when it is not its owner
        /// already. A caller that may not (not the superuser) keeps it.
        func apply(toFileAt path: String) {
            guard let current = Owner(ofFileAt: path), current.user != user || current.group != group else { return }
            _ = chown(path, user, group)
        }
    }

    /// The result of ``renameWithoutReplacing(_:to:)``.
    enum ExclusiveRename {
        case renamed
        /// The destination exists; nothing was renamed.
        case destinationExists
        /// The system or the file system cannot rename exclusively.
        case unsupported
    }

    /// Renames `source` to `destination` unless `destination` exists, in one
    /// atomic step (Linux's `renameat2` with `RENAME_NOREPLACE`, macOS's
    /// `renamex_np` with `RENAME_EXCL`): a crash leaves one of the two
    /// names, never both.
    ///
    /// - throws: A ``DatabaseError`` if the rename fails for another reason.
    static func renameWithoutReplacing(_ source: String, to destination: String) throws -> ExclusiveRename {
        if grdbcipher_rename_noreplace(source, destination) == 0 { return .renamed }
        switch errno {
        case EEXIST: return .destinationExists
        case EINVAL, ENOSYS, EOPNOTSUPP: return .unsupported
        default: throw systemError("cannot move \(source) to \(destination)")
        }
    }

    /// Throws unless `permissions` are permission bits (0 to 0o777).
    static func checkPermissions(_ permissions: Int) throws {
        guard (0...0o777).contains(permissions) else {
            throw DatabaseError.misuse(
                "file permissions must be from 0o000 to 0o777, not 0o\(String(permissions, radix: 8))")
        }
    }

    /// A database error for the system call that just failed, with its
    /// `errno` message.
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
