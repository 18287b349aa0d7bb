import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file that an in-place operation (an upgrade, a re-encryption, a
/// replacement) really changes.
///
/// These operations write a new file beside the database and rename it over
/// the database. Renamed over a symbolic link, the new file would take the
/// link's place, and the database the link points to would keep its old
/// content and key. Renamed over one name of a file with several hard
/// links, it would detach that name from the others, which would go on
/// naming the old file. So an in-place operation works on the real file
/// (symbolic links resolved; its `-wal`, `-shm` and `-journal` are beside
/// it, where SQLite puts them), and refuses a file with several hard links.
enum InPlaceTarget {
    /// The real path of the existing file at `path`: absolute, with every
    /// symbolic link resolved.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_CANTOPEN`) when the file does
    ///   not exist, is a symbolic link to nothing, or is not a regular file.
    static func resolve(_ path: String, operation: String) throws -> String {
        guard let resolved = realPath(path) else {
            let reason = isSymbolicLink(path) ? "it is a symbolic link to a missing file" : "it does not exist"
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot \(operation) \(path): \(reason)")
        }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot \(operation) \(path): it is not a regular file")
        }
        return resolved
    }

    /// The real path of `path` if something exists there, `path` itself if
    /// nothing does (a replacement then creates the file).
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_CANTOPEN`) when `path` is a
    ///   symbolic link to a missing file: a rename would replace the link.
    static func resolveIfPresent(_ path: String, operation: String) throws -> String {
        if FileIdentity(path: path) == nil && !isSymbolicLink(path) { return path }
        return try resolve(path, operation: operation)
    }

    /// Throws unless the file at `path` has exactly one name.
    ///
    /// - parameter shownPath: The path the caller gave, for the message.
    /// - throws: A ``DatabaseError`` (`SQLITE_CANTOPEN`) that says why a file
    ///   with several hard links is refused, and what to do instead.
    static func checkSingleLink(_ path: String, shownPath: String, operation: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FileSystem.systemError("cannot \(operation) \(shownPath)", code: .SQLITE_CANTOPEN)
        }
        let links = Int(info.st_nlink)
        guard links <= 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_CANTOPEN,
                message: "cannot \(operation) \(shownPath) in place: the file has \(links) hard links, and renaming "
                    + "a new file over one of its names would leave the other names on the old file; "
                    + "export it to a new file instead, or remove the other links first")
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}
