import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file an in-place command (`rekey` with new settings, `upgrade`)
/// really changes. Such a command renames a new file over the database:
/// over a symbolic link, the new file would take the link's place and the
/// database would keep its old key; over one name of a file with several
/// hard links, the other names would keep the old file. So symbolic links
/// are followed, to the real file (its `-wal` and `-journal` are beside it),
/// and a file with several hard links is refused.
struct InPlaceFile {
    /// The real path: absolute, every symbolic link resolved.
    let path: String

    /// - parameters:
    ///   - path: FILE, as given.
    ///   - command: What the command does, for the message ("rekey").
    ///   - advice: What to do instead with a hard-linked file.
    /// - throws: A refused ``ToolError`` for a file with several hard links,
    ///   a `missingInput` one when the path cannot be resolved.
    init(_ path: String, command: String, advice: String) throws {
        guard let resolved = realpath(path, nil) else {
            throw ToolError(.missingInput, "\(path) cannot be resolved: \(String(cString: strerror(errno)))")
        }
        self.path = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(self.path, &info) == 0 else {
            throw ToolError(.missingInput, "\(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        if info.st_nlink > 1 {
            throw ToolError(
                .refused,
                "\(path) has \(info.st_nlink) hard links: \(command) in place renames a new file over it, which "
                    + "would leave the other names on the old file; \(advice), or remove the other links")
        }
    }

    /// The folder of the real file.
    var folder: String { (path as NSString).deletingLastPathComponent }

    /// The name of the real file.
    var name: String { (path as NSString).lastPathComponent }
}
