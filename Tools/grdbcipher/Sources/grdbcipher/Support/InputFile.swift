import Foundation
import GRDBCipher

/// The database file a command reads: checked before any passphrase is asked.
struct InputFile {
    let path: String
    /// Whether the file is encrypted, judged from its header.
    let isEncrypted: Bool

    /// - throws: A ``ToolError``: `missingInput` when the file does not
    ///   exist or cannot be read, `doesNotOpen` when it is too short for a header.
    init(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolError(.missingInput, "\(path) does not exist")
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw ToolError(.missingInput, "\(path) is not a readable file")
        }
        self.path = path
        do {
            isEncrypted = try DatabaseFile.isEncrypted(atPath: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw ToolError(.doesNotOpen, "\(path) is not a database: it is too short for a header")
        } catch {
            throw ToolError(.missingInput, "\(path) cannot be read")
        }
    }

    /// Refuses a plaintext file, for commands that work on encrypted ones.
    func requireEncrypted(_ advice: String) throws {
        guard isEncrypted else {
            throw ToolError(.refused, "\(path) is not encrypted: \(advice)")
        }
    }

    /// The size of the file in bytes.
    var size: Int64 { FileGrowthMonitor.size(of: path) }

    /// Whether the file has a key envelope beside it (`<path>.envelope`).
    var hasEnvelope: Bool {
        FileManager.default.fileExists(atPath: DatabaseEnvelope.path(forDatabaseAt: path))
    }

    /// Refuses an enveloped database for a command that would change its key
    /// or settings in place: the envelope wraps the file's data key and is
    /// bound to its salt, so the file would be left with a key that exists
    /// nowhere.
    func requireNoEnvelope(command: String, advice: String) throws {
        guard hasEnvelope else { return }
        throw ToolError(
            .refused,
            "\(path) has a key envelope (\(DatabaseEnvelope.path(forDatabaseAt: path))): \(command) in place would "
                + "leave it under a key that no envelope holds; \(advice)")
    }
}

/// A file a command writes: refused when it exists, unless `--replace`.
struct OutputFile {
    let path: String
    let replace: Bool

    /// - throws: A refused ``ToolError`` when the file exists (or its WAL or
    ///   journal does) without `replace`, or when it is the input itself;
    ///   a failure when its folder does not exist.
    init(_ path: String, replace: Bool, input: String) throws {
        self.path = path
        self.replace = replace
        if Self.sameFile(path, input) {
            throw ToolError(.refused, "the output \(path) is the input file")
        }
        if !replace, ["", "-wal", "-journal"].contains(where: { FileManager.default.fileExists(atPath: path + $0) }) {
            throw ToolError(.refused, "\(path) exists: pass --replace to replace it")
        }
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil,
           !FileManager.default.fileExists(atPath: path) {
            throw ToolError(.refused, "\(path) is a symbolic link to a missing file: remove it, or write elsewhere")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ToolError(.failure, "cannot write \(path): the folder \(folder) does not exist")
        }
    }

    /// A temporary file of the tool's own, known not to exist.
    init(unchecked path: String) {
        self.path = path
        self.replace = false
    }

    /// Removes the file and the files SQLite keeps beside it.
    func removeWithSideFiles() {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// The folder of the file.
    var folder: String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// The name of the file, without its folder.
    var name: String { (path as NSString).lastPathComponent }

    /// Whether two paths name the same existing file.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let first = try? FileManager.default.attributesOfItem(atPath: a),
              let second = try? FileManager.default.attributesOfItem(atPath: b) else { return false }
        return (first[.systemNumber] as? NSNumber) == (second[.systemNumber] as? NSNumber)
            && (first[.systemFileNumber] as? NSNumber) == (second[.systemFileNumber] as? NSNumber)
    }
}
