#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes file creations and renames survive a power loss: a rename is only
/// durable once the directory that holds the name is synced, and the file's
/// content once the file is.
enum FileDurability {
    /// Flushes the content of the file at `path` to stable storage.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_IOERR_FSYNC`) if it cannot.
    static func syncFile(atPath path: String) throws {
        try sync(path, flags: O_RDONLY, what: "the file \(path)")
    }

    /// Flushes the directory that holds `path`, so that names created,
    /// renamed or removed there are on stable storage.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_IOERR_FSYNC`) if it cannot.
    static func syncDirectory(containing path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        try sync(directory, flags: O_RDONLY | O_DIRECTORY, what: "the folder \(directory)")
    }

    private static func sync(_ path: String, flags: CInt, what: String) throws {
        let descriptor = open(path, flags | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FileSystem.systemError("cannot open \(what) to sync it", code: .SQLITE_IOERR_FSYNC)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw FileSystem.systemError("cannot sync \(what)", code: .SQLITE_IOERR_FSYNC)
        }
    }
}
