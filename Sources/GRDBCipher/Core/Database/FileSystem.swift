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
