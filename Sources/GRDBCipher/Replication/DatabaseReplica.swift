#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A replica in a store: what it holds, and restores from it.
///
/// A restore writes a new file from the shipped bytes (SQLCipher's
/// ciphertext: nothing is decrypted to rebuild it), checks every object it
/// uses against its authenticated header and its place in the generation,
/// then opens the file with the key and runs `PRAGMA cipher_integrity_check`
/// and `PRAGMA integrity_check`. Only a file that passes is given the output
/// name; an altered or incomplete replica leaves no output file.
///
/// ```swift
/// let replica = DatabaseReplica(store: try FolderReplicaStore(path: "/backups/app"), key: .passphrase(secret))
/// let restored = try await replica.restore(to: "/data/app-restored.sqlite")
/// print(restored.time)   // the time of the state restored
/// ```
public struct DatabaseReplica: Sendable {
    /// A generation of a replica, as its store lists it: a snapshot, then
    /// the WAL that followed, and the later snapshots.
    public struct Generation: Sendable, Equatable {
        /// The generation's name.
        public var id: String
        /// How many objects it holds.
        public var objectCount: Int
        /// When each of its snapshots was taken.
        public var snapshotTimes: [Date]
        /// The state of its first snapshot: the earliest time it restores.
        public var firstTime: Date
        /// The state of its last object: the latest time it restores.
        public var lastTime: Date
    }

    /// What a restore gave.
    public struct Restoration: Sendable, Equatable {
        /// The generation the file was rebuilt from.
        public var generation: String
        /// The time of the state restored: when the replicator read the last
        /// commit the file holds.
        public var time: Date
        /// How many objects were applied, the snapshot included.
        public var objectCount: Int
    }

    private let store: any ReplicaStore
    private let key: DatabaseKey

    /// A replica in `store`, made with `key`, the key of the database.
    public init(store: any ReplicaStore, key: DatabaseKey) {
        self.store = store
        self.key = key
    }

    /// The generations of the replica, oldest first, as the store lists them
    /// (the objects are authenticated when a restore reads them).
    ///
    /// - throws: ``ReplicaError/empty``, ``ReplicaError/wrongKey``, or the
    ///   store's error.
    public func generations() async throws -> [Generation] {
        _ = try await ReplicaRoot.metadataKey(in: store, for: key, creating: false)
        return try await listing().map { id, objects in
            Generation(
                id: id, objectCount: objects.count,
                snapshotTimes: objects.filter { $0.kind == .snapshot }.map { Self.date($0.time) },
                firstTime: Self.date(objects.first { $0.kind == .snapshot }?.time ?? objects[0].time),
                lastTime: Self.date(objects[objects.count - 1].time))
        }
    }

    /// Rebuilds the database into a new file at `path`, as of the latest
    /// state of the replica or, given `time`, as of the last state read at
    /// or before it.
    ///
    /// The file is created exclusively (mode 0600) under a temporary name in
    /// the folder of `path`, synced, verified with the key, then linked to
    /// `path`, which must not exist.
    ///
    /// - parameters:
    ///   - path: The output file.
    ///   - time: The point in time; nil for the latest state.
    ///   - configuration: How to open the file to verify it: its key and
    ///     cipher settings. Default: the replica's key and SQLCipher 4's
    ///     default settings.
    /// - throws: ``ReplicaError/outputExists(_:)``, ``ReplicaError/empty``,
    ///   ``ReplicaError/wrongKey``, ``ReplicaError/noStateAtTime(_:)``,
    ///   ``ReplicaError/altered(_:)``, ``ReplicaError/incomplete(_:)``,
    ///   ``ReplicaError/verificationFailed(_:)``, the store's error.
    @discardableResult
    public func restore(to path: String, at time: Date? = nil, configuration: Configuration? = nil) async throws
        -> Restoration
    {
        if FileManager.default.fileExists(atPath: path) { throw ReplicaError.outputExists(path) }
        let metadataKey = try await ReplicaRoot.metadataKey(in: store, for: key, creating: false)
        let generations = try await listing()
        guard !generations.isEmpty else { throw ReplicaError.empty }
        let limit = time.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) } ?? .max

        // The latest snapshot at or before the time, in the generation that
        // reaches furthest.
        var plan: (generation: String, objects: [Listed])?
        for (id, objects) in generations.reversed() {
            guard let start = objects.lastIndex(where: { $0.kind == .snapshot && $0.time <= limit }) else { continue }
            if let best = plan, let bestStart = best.objects.first, bestStart.time >= objects[start].time { continue }
            plan = (id, Array(objects[start...]))
        }
        guard let plan else {
            throw ReplicaError.noStateAtTime(time.map { ISO8601DateFormatter().string(from: $0) } ?? "now")
        }

        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/." + (path as NSString).lastPathComponent
            + ".restore-" + (try ReplicaCrypto.randomBytes(6)).hexString
        let output = try RestoreFile(path: temporary)
        do {
            var previous: ReplicaObject?
            var applied = 0
            var stateTime: Int64 = 0
            for listed in plan.objects where listed.time <= limit {
                if let previous, listed.index != previous.header.index + 1 {
                    throw ReplicaError.incomplete(
                        "generation \(plan.generation) lacks object \(previous.header.index + 1)")
                }
                guard let data = try await store.read(listed.name) else {
                    throw ReplicaError.incomplete("\(listed.name) is listed but cannot be read")
                }
                let object = try ReplicaObject.decode(data, name: listed.name, key: metadataKey)
                if let previous {
                    try Self.checkContinuity(object.header, after: previous)
                    if object.header.kind == .segment {
                        try output.apply(frames: object.body, pageSize: object.header.pageSize, name: listed.name)
                    }
                } else {
                    try output.replaceContent(with: object.body)
                }
                previous = object
                applied += 1
                stateTime = object.header.time
            }
            try output.sync()
            try output.close()
            try await Self.verify(temporary, configuration: configuration ?? Self.configuration(key))
            try output.link(to: path)
            return Restoration(generation: plan.generation, time: Self.date(stateTime), objectCount: applied)
        } catch {
            try? output.close()
            output.remove()
            throw error
        }
    }

    // MARK: - Planning

    struct Listed {
        var name: String
        var index: Int
        var kind: ReplicaObject.Header.Kind
        var time: Int64
    }

    /// The objects of each generation, by index, generations oldest first.
    private func listing() async throws -> [(String, [Listed])] {
        var generations: [String: [Listed]] = [:]
        for name in try await store.names(withPrefix: "generations/") {
            guard let parsed = ReplicaObject.parseName(name) else { continue }
            generations[parsed.generation, default: []].append(
                Listed(name: name, index: parsed.index, kind: parsed.kind, time: parsed.time))
        }
        return generations.keys.sorted().map { id in (id, generations[id]!.sorted { $0.index < $1.index }) }
    }

    /// Checks that `header` comes right after `previous` in its generation
    /// and in the WAL.
    static func checkContinuity(_ header: ReplicaObject.Header, after previous: ReplicaObject) throws {
        let before = previous.header
        guard header.generation == before.generation, header.index == before.index + 1,
              header.previousMAC == previous.mac.hexString, header.pageSize == before.pageSize,
              header.time >= before.time
        else { throw ReplicaError.altered("object \(header.index) of \(header.generation) does not follow object \(before.index)") }
        if header.kind == .snapshot { return }
        let sameWAL = header.walSequence == before.walSequence && header.walSalt1 == before.walSalt1
            && header.walSalt2 == before.walSalt2 && header.walStart == before.walEnd
        let nextWAL = before.restartsWAL && header.walStart == WALFile.headerSize
            && (header.walSequence == before.walSequence &+ 1
                || (before.walSequence == 0 && before.walSalt1 == 0 && before.walSalt2 == 0))
        guard sameWAL || nextWAL else {
            throw ReplicaError.incomplete("object \(header.index) of \(header.generation) leaves a hole in the WAL")
        }
    }

    static func configuration(_ key: DatabaseKey) -> Configuration {
        var configuration = Configuration()
        configuration.key = key
        return configuration
    }

    /// Opens the restored file with the key and checks every page's HMAC and
    /// the database's structure.
    static func verify(_ path: String, configuration: Configuration) async throws {
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            let (cipherFailures, integrity) = try await dbQueue.read { db in
                (try String.fetchAll(db, sql: "PRAGMA cipher_integrity_check"),
                 try String.fetchAll(db, sql: "PRAGMA integrity_check"))
            }
            try await dbQueue.close()
            guard cipherFailures.isEmpty else {
                throw ReplicaError.verificationFailed("cipher_integrity_check: \(cipherFailures.prefix(3).joined(separator: "; "))")
            }
            guard integrity == ["ok"] else {
                throw ReplicaError.verificationFailed("integrity_check: \(integrity.prefix(3).joined(separator: "; "))")
            }
        } catch let error as ReplicaError {
            throw error
        } catch let error as DatabaseError {
            throw ReplicaError.verificationFailed("\(error.resultCode): \(error.message ?? "")")
        }
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

/// The file a restore rebuilds, under its temporary name.
private final class RestoreFile {
    let path: String
    private var descriptor: CInt

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.error("cannot create \(path)") }
    }

    func replaceContent(with body: Data) throws {
        guard ftruncate(descriptor, 0) == 0 else { throw Self.error("cannot truncate \(path)") }
        try write(body, at: 0)
    }

    /// Writes each frame's page at its place, and sets the size of the file
    /// at each commit.
    func apply(frames: Data, pageSize: Int, name: String) throws {
        let frameSize = WALFile.frameHeaderSize + pageSize
        guard frames.count % frameSize == 0 else { throw ReplicaError.altered("\(name) holds a partial frame") }
        let bytes = [UInt8](frames)
        var offset = 0
        while offset < bytes.count {
            let page = Int(WALFile.bigEndianWord(bytes, offset))
            let commit = Int(WALFile.bigEndianWord(bytes, offset + 4))
            guard page >= 1 else { throw ReplicaError.altered("\(name) holds a frame of page 0") }
            let start = offset + WALFile.frameHeaderSize
            try write(frames.subdata(in: start..<(start + pageSize)), at: (page - 1) * pageSize)
            if commit != 0 {
                guard ftruncate(descriptor, off_t(commit * pageSize)) == 0 else { throw Self.error("cannot resize \(path)") }
            }
            offset += frameSize
        }
    }

    private func write(_ data: Data, at offset: Int) throws {
        try data.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.error("cannot write \(path)")
                }
                written += count
            }
        }
    }

    func sync() throws {
        guard fsync(descriptor) == 0 else { throw Self.error("cannot sync \(path)") }
    }

    func close() throws {
        guard descriptor >= 0 else { return }
        let result = systemClose(descriptor)
        descriptor = -1
        guard result == 0 else { throw Self.error("cannot close \(path)") }
    }

    /// Gives the file its name, refusing to replace one: `link` fails when
    /// the name exists.
    func link(to target: String) throws {
        guard systemLink(path, target) == 0 else {
            if errno == EEXIST { throw ReplicaError.outputExists(target) }
            throw Self.error("cannot name the restored file \(target)")
        }
        remove()
        let folder = (target as NSString).deletingLastPathComponent
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            defer { _ = systemClose(directory) }
            guard fsync(directory) == 0 else { throw Self.error("cannot sync the folder of \(target)") }
        }
    }

    /// Removes the temporary file and what opening it left.
    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    private static func error(_ message: String) -> ReplicaError {
        .store("\(message): \(String(cString: strerror(errno)))")
    }
}

private func systemClose(_ descriptor: CInt) -> CInt {
#if canImport(Glibc)
    Glibc.close(descriptor)
#else
    Darwin.close(descriptor)
#endif
}

private func systemLink(_ from: String, _ to: String) -> CInt {
#if canImport(Glibc)
    Glibc.link(from, to)
#else
    Darwin.link(from, to)
#endif
}
