import Foundation
import GRDBCipher
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension OutputFile {
    /// Moves `temporary`, a finished and checked copy beside this file, into
    /// place. With `--replace`, over the existing file, with the library's
    /// `DatabaseFile.replace` (it follows a symbolic link, refuses a file with
    /// several hard links, or one that another process has open). Without,
    /// with link(2), which fails when the path exists: a file created since
    /// the command checked is never overwritten, nor its `-wal` and `-shm`
    /// removed.
    ///
    /// - throws: A refused ``ToolError`` when the file appeared meanwhile,
    ///   a failure when the file system says no; `temporary` then stays, for
    ///   the caller to remove.
    func moveIntoPlace(from temporary: OutputFile) throws {
        if replace {
            try DatabaseFile.replace(atPath: path, with: temporary.path)
            return
        }
        try Self.sync(temporary.path, what: "the copy")
        if link(temporary.path, path) == 0 {
            unlink(temporary.path)
            try Self.sync(folder, what: "the folder \(folder)")
            return
        }
        switch errno {
        case EEXIST:
            throw appearedMeanwhile
        case EPERM, EOPNOTSUPP, ENOSYS:
            // A file system without hard links: check, then rename. Only a
            // file created between these two calls could be replaced.
            if FileManager.default.fileExists(atPath: path) { throw appearedMeanwhile }
            guard rename(temporary.path, path) == 0 else { throw Self.failure("cannot move the copy to \(path)") }
            try Self.sync(folder, what: "the folder \(folder)")
        default:
            throw Self.failure("cannot move the copy to \(path)")
        }
    }

    /// Where the new file is written: this path, or with `--replace`, the
    /// file that an existing symbolic link points to (the library replaces
    /// that file, and a rename cannot leave its file system). Temporary
    /// files go beside it.
    var placement: String {
        guard replace, let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private var appearedMeanwhile: ToolError {
        ToolError(.refused, "\(path) appeared while the copy was made: it was left as it is; pass --replace to replace it")
    }

    /// Flushes a file, or a folder's names, to stable storage.
    private static func sync(_ path: String, what: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open \(what) to sync it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("cannot sync \(what)") }
    }

    private static func failure(_ message: String) -> ToolError {
        ToolError(.failure, "\(message): \(String(cString: strerror(errno)))")
    }
}
