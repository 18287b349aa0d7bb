import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files that an operation on a database writes beside it for a moment,
/// named after the process that writes them, and what is left of them when
/// that process is killed: the temporary copy of an export or a copy and
/// swap (`.<name>.export-p<pid>-<UUID>`, with its journal or WAL), and the
/// side files of a replaced database set aside until the rename is done
/// (`<name>-wal.replaced-p<pid>-<UUID>`). A plaintext export's copy holds
/// decrypted data: it must not outlive its process.
///
/// ``remove(besideDatabaseAt:)`` removes those whose process no longer
/// exists. A file whose process is alive (an operation under way), or whose
/// name does not say which process wrote it, is left alone. Queues and
/// pools call it when they open a file, and every copy and swap before it
/// starts.
enum AbandonedFiles {
    /// The start of the names of the temporary copies made for `path`.
    static func temporaryCopyPrefix(for path: String) -> String {
        ".\((path as NSString).lastPathComponent).export-"
    }

    /// A new name for a temporary copy of `path`, beside it.
    static func temporaryCopyPath(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "" : folder + "/") + temporaryCopyPrefix(for: path) + "p\(getpid())-\(UUID().uuidString)"
    }

    /// A new name for the side file `sideFile` of a database that is being
    /// replaced, while the replacement is renamed over the database.
    static func setAsidePath(for sideFile: String) -> String {
        "\(sideFile).replaced-p\(getpid())-\(UUID().uuidString)"
    }

    /// Removes what killed processes left beside the database at `path`.
    static func remove(besideDatabaseAt path: String) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        let copyPrefix = temporaryCopyPrefix(for: path) + "p"
        let asidePrefixes = ["-wal", "-shm", "-journal"].map { name + $0 + ".replaced-p" }
        for entry in names {
            let owner: Substring
            if entry.hasPrefix(copyPrefix) {
                owner = entry.dropFirst(copyPrefix.count).prefix { $0 != "-" }
            } else if let prefix = asidePrefixes.first(where: { entry.hasPrefix($0) }) {
                owner = entry.dropFirst(prefix.count).prefix { $0 != "-" }
            } else {
                continue
            }
            guard let pid = pid_t(owner), pid > 0, pid != getpid(), kill(pid, 0) == -1, errno == ESRCH else { continue }
            unlink((folder.isEmpty ? "" : folder + "/") + entry)
        }
    }
}
