import Foundation

/// The names and bytes of files at one moment: a database file with the
/// files SQLite keeps beside it, or a whole directory. Check later that they
/// did not change with ``EncryptionCheck/unchanged(since:)`` or
/// ``expectUnchanged(since:fileID:filePath:line:column:)``, which list what
/// changed, appeared or disappeared, with sizes.
///
/// ```swift
/// let before = try FileSnapshot.database(path)
/// try? runSomethingThatMustNotWrite(path)
/// expectUnchanged(since: before)
/// ```
public struct FileSnapshot: Sendable, Equatable {
    /// What a snapshot holds.
    public enum Scope: Sendable, Equatable {
        /// The database file at this path, and its `-wal`, `-shm` and `-journal`.
        case database(String)
        /// Every entry of this directory (hidden ones included, not those of
        /// subdirectories; only regular files are read).
        case directory(String)
    }

    /// What the snapshot holds.
    public let scope: Scope

    /// The bytes of each file, by name (what is not a regular file, such as a
    /// subdirectory or a FIFO, has empty bytes).
    public let files: [String: Data]

    /// The suffixes of the files SQLite keeps beside a database.
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// The database at `path` (which need not exist) and its `-wal`, `-shm` and `-journal`.
    ///
    /// - throws: A ``EncryptionCheck/Failure`` if a file exists but cannot be read.
    public static func database(_ path: String) throws -> FileSnapshot {
        var files: [String: Data] = [:]
        for suffix in [""] + sideFileSuffixes where FileManager.default.fileExists(atPath: path + suffix) {
            files[(path as NSString).lastPathComponent + suffix] = try FileBytes.read(path + suffix)
        }
        return FileSnapshot(scope: .database(path), files: files)
    }

    /// Every entry of the directory at `path`.
    ///
    /// - throws: A `CocoaError` if the directory cannot be read, a
    ///   ``EncryptionCheck/Failure`` if one of its files cannot.
    public static func directory(_ path: String) throws -> FileSnapshot {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            let filePath = (path as NSString).appendingPathComponent(name)
            // Only regular files are read: a FIFO would block the reading.
            let type = try? FileManager.default.attributesOfItem(atPath: filePath)[.type] as? FileAttributeType
            files[name] = type == .typeRegular ? try FileBytes.read(filePath) : Data()
        }
        return FileSnapshot(scope: .directory(path), files: files)
    }

    /// The same files, now.
    ///
    /// - throws: A `CocoaError` or ``EncryptionCheck/Failure`` if a file cannot be read.
    public func current() throws -> FileSnapshot {
        switch scope {
        case let .database(path): try .database(path)
        case let .directory(path): try .directory(path)
        }
    }

    /// What differs from `earlier`, one line per file: "db.sqlite changed
    /// (8192 bytes, then 12288; first difference at byte 4096)", "db.sqlite-wal
    /// appeared (32992 bytes)", "x disappeared (10 bytes)". Empty when nothing
    /// differs. `ignoringContentsOf`: names compared by presence only.
    public func differences(from earlier: FileSnapshot, ignoringContentsOf ignored: Set<String> = []) -> [String] {
        var lines: [String] = []
        for name in Set(earlier.files.keys).union(files.keys).sorted() {
            switch (earlier.files[name], files[name]) {
            case let (before?, after?) where before != after && !ignored.contains(name):
                let offset = zip(before, after).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(before.count, after.count)
                lines.append("\(name) changed (\(before.count) bytes, then \(after.count); first difference at byte \(offset))")
            case (nil, let after?):
                lines.append("\(name) appeared (\(after.count) bytes)")
            case (let before?, nil):
                lines.append("\(name) disappeared (\(before.count) bytes)")
            default:
                break
            }
        }
        return lines
    }

    /// The files as "name (size bytes)", sorted by name; "no file" when there is none.
    public var listing: String {
        files.isEmpty ? "no file" : files.keys.sorted().map { "\($0) (\(files[$0]!.count) bytes)" }.joined(separator: ", ")
    }
}
