#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A replica store in a folder: a local disk, or a mounted network volume.
///
/// Each object is written to a temporary file created exclusively (mode
/// 0600), synced, renamed into place, and its folder synced: a crash leaves
/// an object whole or absent, never torn.
///
/// ```swift
/// let store = try FolderReplicaStore(path: "/backups/app")
/// ```
public struct FolderReplicaStore: ReplicaStore, CustomStringConvertible {
    /// The folder of the replica.
    public let path: String

    /// A store in `path`, created (mode 0700) if it does not exist.
    ///
    /// - throws: ``ReplicaError/store(_:)`` if the folder cannot be created.
    public init(path: String) throws {
        self.path = path
        try Self.makeFolder(path)
    }

    /// The store's folder, for messages.
    public var description: String { "FolderReplicaStore(\(path))" }

    /// Writes an object through a temporary file that is synced, then
    /// renamed into place; the folder is synced after the rename.
    ///
    /// - throws: ``ReplicaError/store(_:)`` with the system's error (a full
    ///   disk, EIO, a folder that cannot be created).
    public func write(_ data: Data, to name: String) async throws {
        let target = try self.path(of: name)
        let folder = (target as NSString).deletingLastPathComponent
        try Self.makeFolder(folder)
        let temporary = folder + "/.tmp-" + (try ReplicaCrypto.randomBytes(8)).hexString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.error("cannot create \(temporary)") }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            var written = 0
            try data.withUnsafeBytes { buffer in
                while written < buffer.count {
                    let count = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw Self.error("cannot write \(name)")
                    }
                    written += count
                }
            }
            guard fsync(descriptor) == 0 else { throw Self.error("cannot sync \(name)") }
            closed = true
            guard close(descriptor) == 0 else { throw Self.error("cannot close \(name)") }
            guard rename(temporary, target) == 0 else { throw Self.error("cannot rename \(name) into place") }
        } catch {
            unlink(temporary)
            throw error
        }
        try Self.syncFolder(folder)
    }

    /// The bytes of an object, or nil when there is none of that name.
    ///
    /// - throws: ``ReplicaError/store(_:)`` when the file cannot be read.
    public func read(_ name: String) async throws -> Data? {
        let target = try path(of: name)
        guard FileManager.default.fileExists(atPath: target) else { return nil }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: target))
        } catch {
            throw ReplicaError.store("cannot read \(name): \(error.localizedDescription)")
        }
    }

    /// The names of the objects under the folder whose name starts with
    /// `prefix`, sorted; temporary files of unfinished writes are left out.
    ///
    /// - throws: ``ReplicaError/store(_:)`` when the folder cannot be listed.
    public func names(withPrefix prefix: String) async throws -> [String] {
        let root = URL(fileURLWithPath: path)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else {
            throw ReplicaError.store("cannot list \(path)")
        }
        var names: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let last = (relative as NSString).lastPathComponent
            if last.hasPrefix(".tmp-") { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory),
                  !isDirectory.boolValue, relative.hasPrefix(prefix)
            else { continue }
            names.append(relative)
        }
        return names.sorted()
    }

    /// Deletes an object; a missing object is no error.
    ///
    /// - throws: ``ReplicaError/store(_:)`` when the file cannot be removed.
    public func delete(_ name: String) async throws {
        let target = try path(of: name)
        if unlink(target) != 0 && errno != ENOENT { throw Self.error("cannot delete \(name)") }
        // A folder its last object left goes too (rmdir fails on one that is not empty).
        if name.contains("/") { rmdir((target as NSString).deletingLastPathComponent) }
    }

    /// The path of an object, refusing names that would leave the folder.
    private func path(of name: String) throws -> String {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { throw ReplicaError.store("not an object name: \(name)") }
        return path + "/" + name
    }

    private static func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ReplicaError.store("cannot create the folder \(path): \(error.localizedDescription)")
        }
    }

    private static func syncFolder(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw error("cannot open the folder \(path)") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw error("cannot sync the folder \(path)") }
    }

    private static func error(_ message: String) -> ReplicaError {
        .store("\(message): \(String(cString: strerror(errno)))")
    }
}

private func systemWrite(_ descriptor: CInt, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
#if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
#else
    Darwin.write(descriptor, bytes, count)
#endif
}
