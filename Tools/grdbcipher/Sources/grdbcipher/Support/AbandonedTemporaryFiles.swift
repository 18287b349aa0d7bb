import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files of the tool's own: `.<name>.<kind>-p<process id>-<UUID>`
/// beside the file they become (`backup`; `rekey` wrote some before it used
/// the library's re-encryption), with their `-journal`, `-wal` and `-shm`.
/// A killed command leaves them behind, and they hold a copy of the
/// database: the next command on the same file removes them, as the
/// library removes its exports' (`.<name>.export-p…`).
enum AbandonedTemporaryFiles {
    /// The name of a new temporary file for `kind` beside `path`.
    static func path(besides path: String, kind: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/" + prefix(for: path, kind: kind) + "p\(getpid())-\(UUID().uuidString)"
    }

    /// Removes the files of `kind` beside `path` whose process is gone. A
    /// file whose process is alive, or whose name says no process, stays.
    static func remove(besides path: String, kind: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        let prefix = prefix(for: path, kind: kind) + "p"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let owner = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(owner), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                unlink(directory + "/" + name)
            }
        }
    }

    private static func prefix(for path: String, kind: String) -> String {
        ".\((path as NSString).lastPathComponent).\(kind)-"
    }
}
