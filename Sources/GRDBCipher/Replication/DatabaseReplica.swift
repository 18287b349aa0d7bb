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
///
/// Each generation is under one database key: a key change starts a new
/// one. A restore needs the key of the generation it uses (the latest, or
/// the one that holds the time asked). The replica of an enveloped database
/// holds its key envelope: with the key-encryption key
/// (``init(store:keyEncryptionKey:)``), a restore writes the database and
/// its envelope.
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
        /// Whether the key given opens it: a generation started after a key
        /// change needs the new key.
        public var opensWithKey: Bool
        /// Whether it holds the key envelope of an enveloped database.
        public var holdsEnvelope: Bool
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

    private enum KeySource: Sendable {
        case database(DatabaseKey)
        case envelope(KeyEncryptionKey)
    }

    private let store: any ReplicaStore
    private let source: KeySource

    /// A replica in `store`, made with `key`, the key of the database (for
    /// an enveloped database, its data key; see also
    /// ``init(store:keyEncryptionKey:)``).
    public init(store: any ReplicaStore, key: DatabaseKey) {
        self.store = store
        self.source = .database(key)
    }

    /// The replica of an enveloped database, opened with the key-encryption
    /// key of the envelope it carries: a restore writes the database and
    /// its envelope (`<path>.envelope`).
    public init(store: any ReplicaStore, keyEncryptionKey: KeyEncryptionKey) {
        self.store = store
        self.source = .envelope(keyEncryptionKey)
    }

    /// The generations of the replica, oldest first, as the store lists them
    /// (a restore authenticates every object it reads).
    ///
    /// - throws: ``ReplicaError/empty``, ``ReplicaError/wrongKey`` when the
    ///   key opens none of them, or the store's error.
    public func generations() async throws -> [Generation] {
        let salt = try await ReplicaRoot.salt(in: store, creating: false)
        var keys = KeyCache()
        var generations: [Generation] = []
        for (id, objects) in try await listing() {
            let opens = try await resolveKey(generation: id, objects: objects, salt: salt, cache: &keys) != nil
            generations.append(Generation(
                id: id, objectCount: objects.count,
                snapshotTimes: objects.filter { $0.kind == .snapshot }.map { Self.date($0.time) },
                firstTime: Self.date(objects.first { $0.kind == .snapshot }?.time ?? objects[0].time),
                lastTime: Self.date(objects[objects.count - 1].time),
                opensWithKey: opens, holdsEnvelope: objects.contains { $0.kind == .envelope }))
        }
        if !generations.isEmpty && !generations.contains(where: \.opensWithKey) { throw ReplicaError.wrongKey }
        return generations
    }

    // MARK: - Keys

    /// The keys of a generation: the key of its metadata, the database's,
    /// and the envelope that gave them, if any.
    struct ResolvedKey {
        var metadataKey: [UInt8]
        var databaseKey: DatabaseKey
        var envelope: Data?
    }

    /// Derivations made once per key: PBKDF2 for each database key, scrypt
    /// for each envelope.
    struct KeyCache {
        var metadataKeys: [(key: DatabaseKey, metadataKey: [UInt8])] = []
        var envelopes: [Data: DatabaseKey?] = [:]

        mutating func metadataKey(for key: DatabaseKey, salt: [UInt8]) throws -> [UInt8] {
            if let known = metadataKeys.first(where: { ReplicaCrypto.isSameKey($0.key.material, key.material) }) {
                return known.metadataKey
            }
            let derived = try ReplicaCrypto.metadataKey(for: key.material, salt: salt)
            metadataKeys.append((key, derived))
            return derived
        }
    }

    /// The keys of a generation, or nil when the key given does not open it.
    private func resolveKey(generation id: String, objects: [Listed], salt: [UInt8], cache: inout KeyCache) async throws
        -> ResolvedKey?
    {
        let check = ReplicaObject.keyCheck(ofGeneration: id)
        switch source {
        case .database(let key):
            let metadataKey = try cache.metadataKey(for: key, salt: salt)
            if let check, try ReplicaCrypto.keyCheck(metadataKey) != check { return nil }
            return ResolvedKey(metadataKey: metadataKey, databaseKey: key, envelope: nil)
        case .envelope(let keyEncryptionKey):
            // The newest envelope first: a rewrap replaced the older ones.
            // One the store altered is passed over (and named if no other
            // one opens the generation).
            var altered: ReplicaError?
            for listed in objects.reversed() where listed.kind == .envelope {
                guard let data = try await store.read(listed.name) else { continue }
                do {
                    let body = try ReplicaObject.decodeUnauthenticated(data, name: listed.name).body
                    let databaseKey: DatabaseKey?
                    if let known = cache.envelopes[body] {
                        databaseKey = known
                    } else {
                        databaseKey = try Self.unwrap(body, name: listed.name, with: keyEncryptionKey)
                        cache.envelopes[body] = databaseKey
                    }
                    guard let databaseKey else { continue }
                    let metadataKey = try cache.metadataKey(for: databaseKey, salt: salt)
                    if let check, try ReplicaCrypto.keyCheck(metadataKey) != check { continue }
                    // Now authenticated as the generation's.
                    _ = try ReplicaObject.decode(data, name: listed.name, key: metadataKey)
                    return ResolvedKey(metadataKey: metadataKey, databaseKey: databaseKey, envelope: body)
                } catch let error as ReplicaError {
                    guard case .altered = error else { throw error }
                    altered = altered ?? error
                }
            }
            if let altered { throw altered }
            return nil
        }
    }

    /// The database key an envelope holds, or nil when the key-encryption
    /// key does not open it.
    private static func unwrap(_ body: Data, name: String, with keyEncryptionKey: KeyEncryptionKey) throws -> DatabaseKey? {
        do {
            let envelope = try EnvelopeFile.parse(body, shownPath: name)
            return try envelope.databaseKey(try envelope.unwrap(with: keyEncryptionKey))
        } catch let error as DatabaseEnvelopeError where error.kind == .wrongKeyEncryptionKey {
            return nil
        } catch let error as DatabaseEnvelopeError where error.kind == .malformed {
            throw ReplicaError.altered("\(name) holds no valid key envelope")
        } catch let error as DatabaseEnvelopeError {
            throw ReplicaError.crypto(error.message)
        }
    }

    /// Rebuilds the database into a new file at `path`, as of the latest
    /// state of the replica or, given `time`, as of the last state read at
    /// or before it.
    ///
    /// The file is created exclusively (mode 0600) under a temporary name in
    /// the folder of `path`, synced, verified with the key, then linked to
    /// `path`, which must not exist. With a key-encryption key, the
    /// envelope is written the same way to `<path>.envelope` just before:
    /// the database appears last. An envelope there already is refused,
    /// unless it is the very one the restore would write (a restore
    /// interrupted before the database got its name left it): it is kept.
    ///
    /// - parameters:
    ///   - path: The output file.
    ///   - time: The point in time; nil for the latest state.
    ///   - configuration: How to open the file to verify it: its cipher
    ///     settings (its key is the generation's). Default: SQLCipher 4's
    ///     default settings.
    /// - throws: ``ReplicaError/outputExists(_:)``, ``ReplicaError/empty``,
    ///   ``ReplicaError/wrongKey``, ``ReplicaError/noStateAtTime(_:)``,
    ///   ``ReplicaError/altered(_:)``, ``ReplicaError/incomplete(_:)``,
    ///   ``ReplicaError/verificationFailed(_:)``, the store's error.
    @discardableResult
    public func restore(to path: String, at time: Date? = nil, configuration: Configuration? = nil) async throws
        -> Restoration
    {
        let envelopePath = DatabaseEnvelope.path(forDatabaseAt: path)
        // Before the output is checked: a restore killed after it named the
        // output may have left its temporary names.
        Self.removeLeftovers(ofRestoreTo: path)
        if FileManager.default.fileExists(atPath: path) { throw ReplicaError.outputExists(path) }
        // An envelope left by a restore interrupted before the database got
        // its name is the one the retry would write: it is kept (checked below).
        let existingEnvelope: Data?
        if case .envelope = source {
            existingEnvelope = FileManager.default.contents(atPath: envelopePath)
        } else {
            existingEnvelope = nil
        }
        let salt = try await ReplicaRoot.salt(in: store, creating: false)
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
        var keys = KeyCache()
        let allObjects = generations.first { $0.0 == plan.generation }!.1
        guard let key = try await resolveKey(generation: plan.generation, objects: allObjects, salt: salt, cache: &keys)
        else { throw ReplicaError.wrongKey }
        if let existingEnvelope, existingEnvelope != key.envelope { throw ReplicaError.outputExists(envelopePath) }
        let metadataKey = key.metadataKey

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
                    guard object.header.kind == .snapshot else {
                        throw ReplicaError.altered("\(listed.name) is not the snapshot its name says")
                    }
                    try output.replaceContent(with: object.body)
                }
                previous = object
                applied += 1
                stateTime = object.header.time
            }
            try output.sync()
            try output.close()
            var verification = configuration ?? Configuration()
            verification.key = key.databaseKey
            try await Self.verify(temporary, configuration: verification)
            if case .envelope = source, let envelope = key.envelope, existingEnvelope == nil {
                try await Self.writeEnvelope(envelope, to: envelopePath)
            }
            do {
                try output.link(to: path)
            } catch {
                if case .envelope = source, existingEnvelope == nil { unlink(envelopePath) }
                throw error
            }
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
        if header.kind != .segment { return }
        let sameWAL = header.walSequence == before.walSequence && header.walSalt1 == before.walSalt1
            && header.walSalt2 == before.walSalt2 && header.walStart == before.walEnd
        let nextWAL = before.restartsWAL && header.walStart == WALFile.headerSize
            && (header.walSequence == before.walSequence &+ 1
                || (before.walSequence == 0 && before.walSalt1 == 0 && before.walSalt2 == 0))
        guard sameWAL || nextWAL else {
            throw ReplicaError.incomplete("object \(header.index) of \(header.generation) leaves a hole in the WAL")
        }
    }

    /// Removes what a restore to `path` that died left: its temporary
    /// database (and what opening it made) and its temporary envelope.
    /// Two restores to one output at once are not supported: the second
    /// would remove the first one's files, and the first then fails.
    private static func removeLeftovers(ofRestoreTo path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        let name = (path as NSString).lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix("." + name + ".restore-") || entry.hasPrefix(name + ".envelope.restore-") {
            unlink(directory + "/" + entry)
        }
    }

    /// Writes a restored envelope like the database: a new file, synced,
    /// then linked to its name, which must not exist.
    private static func writeEnvelope(_ envelope: Data, to path: String) async throws {
        let temporary = path + ".restore-" + (try ReplicaCrypto.randomBytes(6)).hexString
        let file = try RestoreFile(path: temporary)
        do {
            try file.replaceContent(with: envelope)
            try file.sync()
            try file.close()
            try file.link(to: path)
        } catch {
            try? file.close()
            file.remove()
            throw error
        }
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

    /// Removes the temporary file and what opening it left; a removal
    /// that fails (EIO) is tried once more, and what stays is removed by
    /// the next restore to the same output.
    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] where unlink(path + suffix) != 0 && errno != ENOENT {
            unlink(path + suffix)
        }
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
