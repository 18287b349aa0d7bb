import Foundation

/// Ships an encrypted database to a replica store, continuously: WAL frames
/// as they commit, and snapshots of the file, without the key ever being
/// needed for the pages (they are SQLCipher's ciphertext).
///
/// While it runs, the replicator is the only checkpointer of the database:
/// it turns SQLite's automatic checkpoints off on the writer connection, and
/// restarts the WAL itself once its frames are in the store. A gap (the WAL
/// restarted by another checkpoint, a restart of the process whose WAL is not
/// the one the replica ends with) starts a new generation with a snapshot:
/// never a silent hole.
///
/// ```swift
/// let dbPool = try DatabasePool(path: path, configuration: config)
/// let store = try FolderReplicaStore(path: "/backups/app")
/// let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: .passphrase(secret))
/// // ...
/// await replicator.stop()
/// ```
///
/// The database key authenticates the replica's metadata (see
/// ``DatabaseReplica``). A key change made through the database (a
/// `DatabasePool.changeKey(_:)`, say) starts a new
/// generation under the new key: no frame written with the new key is
/// shipped into a generation of the old one. An enveloped database's key
/// envelope is shipped with each generation, and again when it changes (a
/// rewrap), so that its key-encryption key restores the replica.
public final class DatabaseReplicator: @unchecked Sendable {
    // Safe: `position`, `pending`, `generationKey` and `task` are only
    // touched by the replication task (and by `start` before the task
    // exists); `shared` only while `lock` is held; the key-change gate is a
    // `LockedValue`.

    /// How a replicator works.
    public struct Options: Sendable {
        /// How often the WAL is read for new commits: the lag of a commit
        /// behind the store is about this, plus the time of an upload.
        /// Default 100 ms.
        public var pollInterval: Duration = .milliseconds(100)
        /// The size of shipped WAL after which the replicator checkpoints
        /// and restarts the WAL. Default 4 MiB.
        public var checkpointSize = 4 << 20
        /// How large the WAL may grow while the store is unreachable. Past
        /// it, the replicator checkpoints, drops what it could not ship, and
        /// starts a new generation once the store answers. Default 256 MiB.
        public var maximumWALSize = 256 << 20
        /// How often a snapshot is shipped within a generation, so that a
        /// restore replays a bounded part of the WAL. Default 6 hours.
        public var snapshotInterval: Duration = .seconds(6 * 3600)
        /// How far back a restore must reach. Once a snapshot at least this
        /// old exists, the objects before it (older generations included)
        /// are deleted from the store, after each snapshot the replicator
        /// ships; the generation's key envelope in force at that snapshot
        /// is kept. nil keeps everything. Default 24 hours.
        public var retention: Duration? = .seconds(24 * 3600)

        /// The default options.
        public init() {}
    }

    /// What a replicator has done.
    public struct Status: Sendable, Equatable {
        /// The generation being shipped, once one was started.
        public var generation: String?
        /// The index, in its generation, of the last object the store
        /// acknowledged.
        public var shippedIndex: Int?
        /// When the state last acknowledged by the store was read.
        public var shippedTime: Date?
        /// How long the oldest commit not yet in the store has waited: zero
        /// when the store holds every commit the replicator has seen.
        public var lag: Duration = .zero
        /// The last failure, cleared by the next step that succeeds.
        public var lastError: String?
        /// How many generations the replicator started.
        public var generationsStarted = 0
    }

    /// Where the replicator is in the WAL and in its generation.
    struct Position {
        var generation: String
        var nextIndex: Int
        var previousMAC: [UInt8]
        var pageSize: Int
        /// The WAL being read; nil when there was none when the generation
        /// started: the next WAL is then the generation's.
        var header: WALFile.Header?
        var offset: Int
        var checksum: WALFile.Checksum
        /// Whether the replicator restarted the WAL at `offset`: the next
        /// WAL, one checkpoint sequence later, continues the generation.
        var restartPending: Bool
        var snapshotTime: ContinuousClock.Instant
        /// Where the WAL was last restarted, to measure what was shipped since.
        var bytesSinceRestart: Int
        /// The key of the generation.
        var key: GenerationKey
        /// The count of key changes when the generation started: frames
        /// read after another change are not the generation's.
        var keyEpoch: Int
        /// The bytes of the key envelope last shipped in the generation.
        var envelope: Data?
    }

    /// The metadata key of a generation, and the database key it derives from.
    struct GenerationKey {
        var material: KeyMaterial
        var metadataKey: [UInt8]
        var check: String
    }

    /// The key changes of the database made in this process: while one
    /// runs, the WAL is not read, and after one, the generation ends.
    struct KeyChangeGate {
        var epoch = 0
        var changing = false
    }

    struct Pending {
        var name: String
        var data: Data
        var header: ReplicaObject.Header
        var readAt: ContinuousClock.Instant
    }

    private struct Shared {
        var status = Status()
        var stepsStarted = 0
        var waiters: [(afterStep: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var stopRequested = false
        var wakeUp: CheckedContinuation<Void, Never>?
        var oldestUnshipped: ContinuousClock.Instant?
    }

    private let writer: any DatabaseWriter
    private let store: any ReplicaStore
    private let salt: [UInt8]
    /// The key given to `start`, for a connection keyed by `PRAGMA key`.
    private let givenKey: KeyMaterial?
    private let options: Options
    private let wal: WALFile
    private let envelopePath: String
    private let lock = NSLock()
    private var shared = Shared()
    private let gate: LockedValue<KeyChangeGate>
    private let registration: KeyChangeObservers.Registration
    private let replicatorLock: ReplicatorLock
    private var position: Position?
    private var generationKey: GenerationKey?
    private var pending: [Pending] = []
    private var task: Task<Void, Never>?
    /// Set when a snapshot was shipped: retention may delete what precedes it.
    private var retentionDue = false

    private init(
        writer: any DatabaseWriter, store: any ReplicaStore, salt: [UInt8], givenKey: KeyMaterial?, options: Options,
        lock: ReplicatorLock, gate: LockedValue<KeyChangeGate>, registration: KeyChangeObservers.Registration
    ) {
        self.replicatorLock = lock
        self.gate = gate
        self.registration = registration
        self.writer = writer
        self.store = store
        self.salt = salt
        self.givenKey = givenKey
        self.options = options
        self.wal = WALFile(path: writer.path + "-wal")
        self.envelopePath = DatabaseEnvelope.path(forDatabaseAt: writer.path)
    }

    deinit {
        registration.remove()
        replicatorLock.release()
    }

    /// Starts replicating a database in WAL mode (a ``DatabasePool``, or a
    /// ``DatabaseQueue`` whose journal mode is WAL) to `store`.
    ///
    /// It continues the store's last generation when the WAL on disk is the
    /// one that generation ends with; otherwise it starts a new generation
    /// with a snapshot of the file.
    ///
    /// - parameters:
    ///   - writer: The database. Keep it open while the replicator runs.
    ///   - store: Where the replica lives.
    ///   - key: The key of the database, or nil for the key its connection
    ///     was opened with (``Configuration/key``, an envelope's data key);
    ///     needed only for a connection keyed by a `PRAGMA key` statement.
    ///     It derives the key that authenticates the replica's metadata.
    ///   - options: How often to ship, checkpoint and snapshot.
    /// - throws: ``ReplicaError/unsupported(_:)`` for a database not in WAL
    ///   mode, whose key is unknown, or that another replicator replicates
    ///   (in this process or another: see `<database>.replicator`),
    ///   ``ReplicaError/wrongKey`` for a key that is not the connection's,
    ///   ``ReplicaError/store(_:)``.
    public static func start(
        _ writer: any DatabaseWriter, to store: any ReplicaStore, key: DatabaseKey? = nil, options: Options = Options()
    ) async throws -> DatabaseReplicator {
        // Key changes are counted from before the connection's key is read:
        // one made later starts a new generation.
        let gate = LockedValue(KeyChangeGate())
        let registration = KeyChangeObservers.add(forDatabaseAt: writer.path) { event in
            gate.withLock { gate in
                switch event {
                case .willChange:
                    gate.changing = true
                case .didChange:
                    gate.changing = false
                    gate.epoch += 1
                }
            }
        }
        var lock: ReplicatorLock?
        do {
            let (mode, connectionKey, epoch) = try await writer.writeWithoutTransaction { db -> (String, KeyMaterial?, Int?) in
                let mode = try db.journalMode()
                let epoch = gate.withLock { $0.changing ? nil : $0.epoch }
                return (mode, db.cipherState.passphrase, epoch)
            }
            guard mode == "wal" else {
                throw ReplicaError.unsupported("the database is not in WAL mode (its journal mode is \(mode))")
            }
            if let key, let connectionKey, !ReplicaCrypto.isSameKey(key.material, connectionKey) {
                throw ReplicaError.wrongKey
            }
            guard connectionKey != nil || key != nil else {
                throw ReplicaError.unsupported("the key of the database is unknown (a PRAGMA key statement keyed it): give it as `key`")
            }
            lock = try ReplicatorLock(forDatabaseAt: writer.path)
            // From now on, the replicator is the only checkpointer.
            try await writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
            let salt = try await ReplicaRoot.salt(in: store, creating: true)
            let replicator = DatabaseReplicator(
                writer: writer, store: store, salt: salt, givenKey: key?.material, options: options, lock: lock!,
                gate: gate, registration: registration)
            if let epoch {
                try await replicator.resumeLastGeneration(connectionKey: connectionKey, keyEpoch: epoch)
            }
            replicator.task = Task.detached { await replicator.run() }
            return replicator
        } catch {
            if lock != nil {
                _ = try? await writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
            }
            lock?.release()
            registration.remove()
            throw error
        }
    }

    /// The key of a generation whose database key is `material` (nil: the
    /// key given to `start`).
    private func generationKey(for material: KeyMaterial?) throws -> GenerationKey {
        guard let material = material ?? givenKey else {
            throw ReplicaError.unsupported("the key of the database is unknown")
        }
        if let current = generationKey, ReplicaCrypto.isSameKey(current.material, material) { return current }
        let metadataKey = try ReplicaCrypto.metadataKey(for: material, salt: salt)
        let key = GenerationKey(material: material, metadataKey: metadataKey, check: try ReplicaCrypto.keyCheck(metadataKey))
        generationKey = key
        return key
    }

    /// What the replicator has done.
    public var status: Status {
        withShared { shared in
            var status = shared.status
            if let oldest = shared.oldestUnshipped { status.lag = ContinuousClock.now - oldest }
            return status
        }
    }

    private func withShared<T>(_ body: (inout Shared) -> T) -> T {
        lock.withLock { body(&shared) }
    }

    /// Returns once the store holds every commit made before the call.
    ///
    /// - throws: The failure of the replication step that should have
    ///   shipped them (the store's error), or `CancellationError`.
    public func sync() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let (stopped, wakeUp) = withShared { shared -> (Bool, CheckedContinuation<Void, Never>?) in
                if shared.stopRequested { return (true, nil) }
                shared.waiters.append((shared.stepsStarted, continuation))
                defer { shared.wakeUp = nil }
                return (false, shared.wakeUp)
            }
            if stopped {
                continuation.resume(throwing: ReplicaError.unsupported("the replicator is stopped"))
            }
            wakeUp?.resume()
        }
    }

    /// Stops replicating, after a last attempt to ship what was committed,
    /// and turns SQLite's automatic checkpoints back on.
    public func stop() async {
        let (alreadyStopped, wakeUp) = withShared { shared in
            defer {
                shared.stopRequested = true
                shared.wakeUp = nil
            }
            return (shared.stopRequested, shared.wakeUp)
        }
        wakeUp?.resume()
        if alreadyStopped { return }
        await task?.value
        registration.remove()
        // Checkpoints are SQLite's again before another replicator may start.
        _ = try? await writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
        replicatorLock.release()
    }

    // MARK: - The replication task

    private func run() async {
        while true {
            let (stopping, step) = withShared { shared in
                shared.stepsStarted += 1
                return (shared.stopRequested, shared.stepsStarted)
            }
            do {
                let caughtUp = try await stepOnce()
                finish(step: step, caughtUp: caughtUp, error: nil)
            } catch {
                finish(step: step, caughtUp: false, error: error)
            }
            if stopping { break }
            await sleepOrWakeUp()
        }
        let waiters = withShared { shared in
            defer { shared.waiters = [] }
            return shared.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: ReplicaError.unsupported("the replicator stopped")) }
    }

    private func sleepOrWakeUp() async {
        let interval = options.pollInterval
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: interval) }
            group.addTask { [self] in
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = withShared { shared in
                        if shared.stopRequested || !shared.waiters.isEmpty { return true }
                        shared.wakeUp = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            await group.next()
            let wakeUp = withShared { shared in
                defer { shared.wakeUp = nil }
                return shared.wakeUp
            }
            wakeUp?.resume()
            // The sleep ends now too, rather than at its deadline.
            group.cancelAll()
            await group.waitForAll()
        }
    }

    private func finish(step: Int, caughtUp: Bool, error: (any Error)?) {
        let resumed = withShared { shared in
            var resumed: [(continuation: CheckedContinuation<Void, any Error>, error: (any Error)?)] = []
            shared.status.lastError = error.map { String(describing: $0) }
            if error != nil || caughtUp {
                shared.waiters.removeAll { waiter in
                    guard waiter.afterStep < step else { return false }
                    resumed.append((waiter.continuation, error))
                    return true
                }
            }
            return resumed
        }
        for (continuation, error) in resumed {
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }

    /// One step: ships what waits, starts a generation if needed, ships the
    /// new commits, checkpoints or snapshots when due. Returns whether the
    /// store holds every commit found in the WAL.
    private func stepOnce() async throws -> Bool {
        try dropPendingIfTheWALIsTooLarge()
        try await uploadPending()
        if position == nil {
            try await checkpoint(startingGeneration: true)
            try await uploadPending()
        }
        try enqueueEnvelopeIfChanged()
        while let frames = try readNewFrames() {
            try enqueue(kind: .segment, body: Data(frames.bytes), pageCount: frames.databasePageCount,
                        walStart: frames.start, walEnd: frames.end, checksum: frames.checksum, restartsWAL: false)
            try await uploadPending()
        }
        guard position != nil else { return false }
        if position!.bytesSinceRestart >= options.checkpointSize {
            try await checkpoint(startingGeneration: false)
            try await uploadPending()
        } else if ContinuousClock.now - position!.snapshotTime >= options.snapshotInterval {
            try await checkpoint(startingGeneration: false, snapshot: true)
            try await uploadPending()
        }
        if retentionDue && pending.isEmpty {
            // Best effort: what was not deleted now is deleted after the
            // next snapshot; a failure here fails no commit's shipment.
            retentionDue = (try? await applyRetention()) == nil
        }
        return position != nil && pending.isEmpty
    }

    private func uploadPending() async throws {
        while let next = pending.first {
            try await store.write(next.data, to: next.name)
            pending.removeFirst()
            if next.header.kind == .snapshot { retentionDue = options.retention != nil }
            lastShippedPageCount = next.header.databasePageCount
            let oldest = pending.first?.readAt
            withShared { shared in
                shared.status.generation = next.header.generation
                shared.status.shippedIndex = next.header.index
                shared.status.shippedTime = next.header.date
                shared.oldestUnshipped = oldest
            }
        }
    }

    /// While the store fails, the WAL grows; past the limit, the replicator
    /// gives up what it could not ship and lets the WAL be reused: the
    /// replica then needs a new generation.
    private func dropPendingIfTheWALIsTooLarge() throws {
        guard !pending.isEmpty, let size = try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int,
              size > options.maximumWALSize
        else { return }
        pending = []
        position = nil
        _ = try writer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        withShared { $0.oldestUnshipped = nil }
    }

    /// The commits that follow the position, or nil when there are none (or
    /// a gap was found: the position is then cleared).
    private func readNewFrames() throws -> WALFile.Frames? {
        guard let epoch = position?.keyEpoch else { return nil }
        // Held while the WAL is read: a key change waits for the read to end
        // before it writes its first frame.
        return try gate.withLock { gate in
            guard !gate.changing, gate.epoch == epoch else {
                startOver("the key of the database changed")
                return nil
            }
            return try readNewFramesOfTheGeneration()
        }
    }

    private func readNewFramesOfTheGeneration() throws -> WALFile.Frames? {
        guard var current = position else { return nil }
        guard let header = try wal.header() else {
            if current.header != nil && !current.restartPending { startOver("the WAL was truncated by a checkpoint of another connection") }
            return nil
        }
        if current.header != header {
            let continues: Bool
            if let previous = current.header {
                continues = current.restartPending && header.checkpointSequence == previous.checkpointSequence &+ 1
            } else {
                continues = true
            }
            guard continues else {
                startOver("the WAL was restarted by a checkpoint of another connection")
                return nil
            }
            current.header = header
            current.offset = WALFile.headerSize
            current.checksum = header.checksum
            current.restartPending = false
            current.bytesSinceRestart = 0
            position = current
        }
        guard let frames = try wal.committedFrames(
            after: current.offset, checksum: current.checksum, header: header, limit: 8 << 20)
        else { return nil }
        position?.restartPending = false
        return frames
    }

    private func startOver(_ reason: String) {
        position = nil
        withShared { $0.status.lastError = "a new generation starts: \(reason)" }
    }

    /// Appends an object to the queue of uploads and advances the position.
    private func enqueue(
        kind: ReplicaObject.Header.Kind, body: Data, pageCount: Int, walStart: Int, walEnd: Int,
        checksum: WALFile.Checksum, restartsWAL: Bool
    ) throws {
        guard var current = position else { return }
        let now = Date()
        let time = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let header = ReplicaObject.Header(
            generation: current.generation, index: current.nextIndex, kind: kind, time: time,
            pageSize: current.pageSize, databasePageCount: pageCount,
            walSequence: current.header?.checkpointSequence ?? 0, walSalt1: current.header?.salt1 ?? 0,
            walSalt2: current.header?.salt2 ?? 0, walStart: walStart, walEnd: walEnd,
            walChecksum1: checksum.s1, walChecksum2: checksum.s2, restartsWAL: restartsWAL,
            bodyLength: body.count, bodySHA256: try SHA256Digest.hash(body).hexString,
            previousMAC: current.previousMAC.hexString)
        let (data, mac) = try ReplicaObject.encode(header: header, body: body, key: current.key.metadataKey)
        let readAt = ContinuousClock.now
        pending.append(Pending(
            name: ReplicaObject.name(generation: header.generation, index: header.index, kind: kind, time: time),
            data: data, header: header, readAt: readAt))
        current.nextIndex += 1
        current.previousMAC = mac
        if kind == .segment {
            current.offset = walEnd
            current.checksum = checksum
            current.bytesSinceRestart += walEnd - walStart
        } else if kind == .envelope {
            current.envelope = body
        }
        position = current
        withShared { shared in
            if shared.oldestUnshipped == nil { shared.oldestUnshipped = readAt }
        }
    }

    /// What a checkpoint found while it held the writer.
    private struct CheckpointResult: Sendable {
        var header: WALFile.Header?
        var tail: [UInt8]
        var tailEnd: Int
        var tailChecksum: WALFile.Checksum
        var tailPageCount: Int
        var restarted: Bool
        var pageSize: Int
        var file: Data?
        var gap: String?
        /// Whether the key changed since the generation started.
        var keyChanged = false
        var keyEpoch = 0
        /// The key of the connection, and the envelope, as of the snapshot.
        var key: KeyMaterial?
        var envelope: Data?
    }

    /// Holding the writer, so that no commit slips between them: reads the
    /// frames not read yet, restarts the WAL (a checkpoint that waits for
    /// readers), and copies the file for a snapshot. The upload happens
    /// after, without the writer.
    private func checkpoint(startingGeneration: Bool, snapshot: Bool = false) async throws {
        let wal = self.wal
        let databasePath = writer.path
        let known = startingGeneration ? nil : position
        let gate = self.gate
        let envelopePath = self.envelopePath
        let result = try await writer.writeWithoutTransaction { db -> CheckpointResult in
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            let header = try wal.header()
            var result = CheckpointResult(
                header: header, tail: [], tailEnd: WALFile.headerSize, tailChecksum: header?.checksum ?? .init(s1: 0, s2: 0),
                tailPageCount: 0, restarted: false, pageSize: pageSize)
            // The writer keeps key changes out; one made meanwhile by
            // another connection of this process is seen here.
            // A connection reopened after a failed key change has SQLite's
            // checkpoints again: the replicator stays the only checkpointer.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            let (changing, epoch) = gate.withLock { ($0.changing, $0.epoch) }
            result.keyEpoch = epoch
            if changing || (known.map { $0.keyEpoch != epoch } ?? false) {
                result.gap = "the key of the database changed"
                result.keyChanged = true
                return result
            }
            if known == nil {
                result.key = db.cipherState.passphrase
                result.envelope = FileManager.default.contents(atPath: envelopePath)
            }
            if let known {
                if let header, known.header == header {
                    result.tailEnd = known.offset
                    result.tailChecksum = known.checksum
                    if let frames = try wal.committedFrames(
                        after: known.offset, checksum: known.checksum, header: header, limit: .max) {
                        result.tail = frames.bytes
                        result.tailEnd = frames.end
                        result.tailChecksum = frames.checksum
                        result.tailPageCount = frames.databasePageCount
                    }
                } else if header != nil || known.header != nil {
                    // The WAL changed under the replicator: readNewFrames
                    // decides whether it continues the generation.
                    result.gap = "the WAL changed before the checkpoint"
                    return result
                }
            } else if let header, let frames = try wal.committedFrames(
                after: WALFile.headerSize, checksum: header.checksum, header: header, limit: .max) {
                result.tailEnd = frames.end
                result.tailChecksum = frames.checksum
            }
            do {
                try db.checkpoint(.restart)
                result.restarted = true
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                result.restarted = false
            }
            if (startingGeneration || snapshot) && result.restarted {
                result.file = try Data(contentsOf: URL(fileURLWithPath: databasePath))
            }
            // A key change by another connection of this process may have
            // run meanwhile: what was read is then not the generation's.
            if gate.withLock({ $0.changing || $0.epoch != epoch }) {
                result.gap = "the key of the database changed"
                result.keyChanged = true
            }
            return result
        }
        if let gap = result.gap {
            if result.keyChanged { startOver(gap) }
            return
        }
        if startingGeneration {
            guard let file = result.file else {
                throw ReplicaError.store("readers hold the WAL: the snapshot of a new generation waits for them")
            }
            let key = try generationKey(for: result.key)
            let random = try ReplicaCrypto.randomBytes(4).hexString
            let millis = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            position = Position(
                generation: ReplicaObject.generationName(millis: millis, random: random, keyCheck: key.check),
                nextIndex: 0, previousMAC: [],
                pageSize: result.pageSize, header: result.header, offset: result.tailEnd,
                checksum: result.tailChecksum, restartPending: true, snapshotTime: .now, bytesSinceRestart: 0,
                key: key, keyEpoch: result.keyEpoch, envelope: nil)
            withShared { $0.status.generationsStarted += 1 }
            if let envelope = result.envelope { try enqueueEnvelope(envelope) }
            try enqueueSnapshot(file, result: result)
            return
        }
        guard var current = position else { return }
        if !result.tail.isEmpty || result.restarted {
            try enqueue(
                kind: .segment, body: Data(result.tail),
                pageCount: result.tail.isEmpty ? lastPageCount : result.tailPageCount,
                walStart: current.offset, walEnd: result.tailEnd, checksum: result.tailChecksum,
                restartsWAL: result.restarted && result.file == nil)
            current = position!
        }
        if result.restarted {
            current.restartPending = true
            current.bytesSinceRestart = 0
            position = current
        }
        if let file = result.file {
            position?.snapshotTime = .now
            try enqueueSnapshot(file, result: result)
        }
    }

    /// The page count of the last object queued or shipped.
    private var lastPageCount: Int {
        pending.last?.header.databasePageCount ?? lastShippedPageCount
    }

    private var lastShippedPageCount = 0

    /// Queues the key envelope: its WAL fields repeat the object before it,
    /// so that the next segment follows it as it follows that object.
    private func enqueueEnvelope(_ envelope: Data) throws {
        guard let current = position else { return }
        try enqueue(
            kind: .envelope, body: envelope, pageCount: lastPageCount, walStart: current.offset, walEnd: current.offset,
            checksum: current.checksum, restartsWAL: current.restartPending)
    }

    /// Ships the key envelope again when it changed (a rewrap gives it a new
    /// key-encryption key): a restore needs the envelope that the current
    /// key-encryption key opens.
    private func enqueueEnvelopeIfChanged() throws {
        guard let current = position, current.envelope != nil,
              let envelope = FileManager.default.contents(atPath: envelopePath), envelope != current.envelope
        else { return }
        try enqueueEnvelope(envelope)
    }

    private func enqueueSnapshot(_ file: Data, result: CheckpointResult) throws {
        guard let current = position else { return }
        try enqueue(
            kind: .snapshot, body: file, pageCount: file.count / max(current.pageSize, 1), walStart: current.offset,
            walEnd: current.offset, checksum: current.checksum, restartsWAL: true)
    }

    /// Continues the store's last generation when the WAL on disk is the
    /// one it ends with.
    private func resumeLastGeneration(connectionKey: KeyMaterial?, keyEpoch: Int) async throws {
        let names = try await store.names(withPrefix: "generations/")
        guard let last = names.compactMap({ name in ReplicaObject.parseName(name).map { (name, $0) } })
            .max(by: { ($0.1.generation, $0.1.index) < ($1.1.generation, $1.1.index) })
        else { return }
        // A generation under another key (the key changed while the
        // replicator was not running) is not continued.
        let key = try generationKey(for: connectionKey)
        guard ReplicaObject.keyCheck(ofGeneration: last.1.generation) == key.check else { return }
        guard let data = try await store.read(last.0),
              // An object that does not authenticate ends its generation: a new one starts.
              let object = try? ReplicaObject.decode(data, name: last.0, key: key.metadataKey)
        else { return }
        let stored = object.header
        guard let header = try wal.header(), header.pageSize == stored.pageSize else { return }
        let sameWAL = header.checkpointSequence == stored.walSequence && header.salt1 == stored.walSalt1
            && header.salt2 == stored.walSalt2
        let storedChecksum = WALFile.Checksum(s1: stored.walChecksum1, s2: stored.walChecksum2)
        var resumed = Position(
            generation: stored.generation, nextIndex: stored.index + 1, previousMAC: object.mac,
            pageSize: stored.pageSize, header: header, offset: stored.walEnd, checksum: storedChecksum,
            restartPending: stored.restartsWAL, snapshotTime: .now, bytesSinceRestart: 0,
            key: key, keyEpoch: keyEpoch,
            envelope: try? await lastEnvelope(in: last.1.generation, names: names, key: key))
        if sameWAL {
            let onDisk = stored.walEnd == WALFile.headerSize
                ? header.checksum : try wal.checksum(ofFrameEndingAt: stored.walEnd, pageSize: header.pageSize)
            guard onDisk == storedChecksum else { return }
        } else if stored.restartsWAL && header.checkpointSequence == stored.walSequence &+ 1 {
            resumed.offset = WALFile.headerSize
            resumed.checksum = header.checksum
            resumed.restartPending = false
        } else {
            return
        }
        lastShippedPageCount = stored.databasePageCount
        position = resumed
        withShared { shared in
            shared.status.generation = stored.generation
            shared.status.shippedIndex = stored.index
            shared.status.shippedTime = stored.date
        }
    }
}

extension DatabaseReplicator {
    /// The last envelope shipped in a generation being resumed, so that
    /// only a change is shipped again.
    fileprivate func lastEnvelope(in generation: String, names: [String], key: GenerationKey) async throws -> Data? {
        guard let name = names.compactMap({ name in ReplicaObject.parseName(name).map { (name, $0) } })
            .filter({ $0.1.generation == generation && $0.1.kind == .envelope })
            .max(by: { $0.1.index < $1.1.index })?.0,
            let data = try await store.read(name)
        else { return nil }
        return try ReplicaObject.decode(data, name: name, key: key.metadataKey).body
    }
}

extension DatabaseReplicator {
    /// Deletes what no restore within the retention needs: every object
    /// before the latest snapshot at least `retention` old (older
    /// generations first, each in its order, so that an interrupted
    /// deletion leaves whole snapshots and what follows them), except the
    /// last key envelope before that snapshot.
    fileprivate func applyRetention() async throws {
        guard let retention = options.retention else { return }
        let seconds = Double(retention.components.seconds) + Double(retention.components.attoseconds) / 1e18
        let cutoff = Int64(((Date().timeIntervalSince1970 - seconds) * 1000).rounded(.down))
        let objects = try await store.names(withPrefix: "generations/")
            .compactMap { name in ReplicaObject.parseName(name).map { (name: name, parsed: $0) } }
            .sorted { ($0.parsed.generation, $0.parsed.index) < ($1.parsed.generation, $1.parsed.index) }
        guard let anchor = objects.last(where: { $0.parsed.kind == .snapshot && $0.parsed.time <= cutoff })?.parsed
        else { return }
        let keptEnvelope = objects.last {
            $0.parsed.generation == anchor.generation && $0.parsed.kind == .envelope && $0.parsed.index < anchor.index
        }?.name
        let current = position?.generation
        for object in objects {
            let parsed = object.parsed
            guard parsed.generation < anchor.generation
                || (parsed.generation == anchor.generation && parsed.index < anchor.index)
            else { break }
            if object.name == keptEnvelope || parsed.generation == current && parsed.generation != anchor.generation {
                continue
            }
            try await store.delete(object.name)
        }
    }
}
