import Dispatch
import Foundation

/// A database connection pool for one file in WAL mode: one writer, and up
/// to ``Configuration/maximumReaderCount`` readers that read in parallel with
/// each other and with the writer.
///
/// ```swift
/// var config = Configuration()
/// config.passphrase = "secret"
/// let dbPool = try DatabasePool(path: "/path/to/db.sqlite", configuration: config)
///
/// try await dbPool.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try await dbPool.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// Each read runs in a deferred transaction and sees one stable state, even
/// while writes commit. Readers are read-only connections: a write attempted
/// in a read fails with `SQLITE_READONLY`.
///
/// Every connection is keyed with the passphrase. The pool derives the key
/// once and keys its other connections with the derived raw key (see
/// ``Configuration/reusesDerivedKeys``), so that opening a reader does not pay
/// SQLCipher's key derivation again. The WAL file is encrypted too.
public final class DatabasePool: DatabaseWriter {
    let writer: SerializedDatabase
    let readers: ReaderPool
    let owner = ConnectionOwner()
    let keyContext: KeyContext
    let readerConfiguration: Configuration
    private let passphraseChangeLock = NSLock()

    /// The path of the database file.
    public let path: String

    /// The configuration of the pool.
    public let configuration: Configuration

    /// The number of the last snapshot, for its connection's name.
    private let snapshotNumber = LockedValue(0)

    /// The reader connections, for ``interrupt()``.
    private let readerConnections = LockedValue<[WeakConnection]>([])

    /// Opens or creates the database at `path` and turns on WAL mode.
    ///
    /// - throws: A ``DatabaseError`` if the file cannot be opened, the key is
    ///   wrong, or WAL mode cannot be enabled.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        let keyContext = KeyContext(reusesDerivedKeys: configuration.reusesDerivedKeys)
        self.keyContext = keyContext

        self.configuration = configuration
        if !configuration.readonly { AbandonedFiles.remove(besideDatabaseAt: path) }

        var writerConfiguration = configuration
        writerConfiguration.journalMode = .wal
        writerConfiguration.waitsForReaderLockRaces = true
        writer = try SerializedDatabase(
            path: path, configuration: writerConfiguration, defaultLabel: "GRDB.DatabasePool", purpose: "writer",
            keyContext: keyContext, owner: owner)

        var readerConfiguration = configuration
        readerConfiguration.readonly = true
        // Readers meet short WAL locks of the writer (a reader that opens
        // while the writer commits may take the WAL index lock for a
        // moment): as in GRDB, they wait for them unless the configuration
        // chose a read-only busy mode. The writer keeps `busyMode`.
        if readerConfiguration.readonlyBusyMode == nil {
            readerConfiguration.readonlyBusyMode = .timeout(10)
        }
        readerConfiguration.journalMode = .default
        self.readerConfiguration = readerConfiguration
        let readerNumber = LockedValue(0)
        let readerConnections = self.readerConnections
        let owner = self.owner
        let writer = self.writer
        let readers = ReaderPool(
            maximumCount: configuration.maximumReaderCount,
            onAllReadsEnded: { [weak writer] in
                // A read that held WAL frames of an old key has ended: the
                // writer's next access end truncates the WAL.
                guard keyContext.hasOldKeyFramesPending, let writer else { return }
                writer.asyncExecute { _ in }
            }) { [readerConfiguration] in
            let connection = try SerializedDatabase(
                path: path, configuration: readerConfiguration, defaultLabel: "GRDB.DatabasePool",
                purpose: "reader.\(readerNumber.withLock { $0 += 1; return $0 })",
                keyContext: keyContext, owner: owner)
            readerConnections.withLock { connections in
                connections.removeAll { $0.connection == nil }
                connections.append(WeakConnection(connection))
            }
            return connection
        }
        self.readers = readers
        if configuration.persistentReadOnlyConnections {
            try readers.openAll()
        }
        // After a passphrase change on the writer, even one made with
        // `db.changePassphrase` in a write access, no idle reader keeps the old key.
        let persistent = configuration.persistentReadOnlyConnections
        keyContext.observeChanges { [weak readers] in
            readers?.invalidate()
            if persistent { readers?.reopenLater() }
        }
    }

    /// Closes every connection. Later accesses throw a ``DatabaseError``.
    ///
    /// As in GRDB, `close()` waits for the reads and writes that run or are
    /// scheduled, then closes the writer first, then the readers.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_BUSY`, "unable to close due to
    ///   unfinalized statements or unfinished backups") if a statement made
    ///   in a write or a read is still alive. The pool then stays fully open:
    ///   no connection is closed, and reads and writes go on working.
    public func close() throws {
        owner.preconditionNotCurrent()
        // The writer first, then the readers, in the order of barrier writes.
        try writer.sync { db in
            try readers.barrier {
                // Nothing closes unless every connection can: a pool that
                // fails to close (a statement still alive) stays fully open.
                // The writer is checked first, as it is closed first.
                try db.checkClosable()
                try readers.checkClosable()
                // As in GRDB, the writer closes first. The readers, read-only,
                // never checkpoint, even the last one to close: the writer
                // stays the file's only checkpointer.
                try db.close()
                try readers.close()
            }
        }
        keyContext.removeAll()
    }

    // MARK: - Writing

    /// Runs `updates` with the writer connection, outside of any transaction.
    ///
    /// - throws: The error of `updates`.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        preconditionWriteCanStart()
        return try writer.sync(updates)
    }

    /// The async twin of `writeWithoutTransaction(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, or the error of `updates`.
    public func writeWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T) async throws -> T
    {
        try await writer.execute(updates)
    }

    /// Runs `updates` with the writer connection once every running read has
    /// ended; no read starts until it is done.
    ///
    /// - throws: The error of `updates`, or a ``DatabaseError``
    ///   (`SQLITE_MISUSE`, "Connection is closed") if the pool is closed.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        owner.preconditionNotCurrent()
        try readers.checkNotClosed()
        // The writer first, then the readers: an `asyncConcurrentRead` that
        // holds the writer while it waits for a reader cannot meet a barrier
        // that holds back readers while it waits for the writer.
        return try writer.sync { db in try readers.barrier { try updates(db) } }
    }

    /// The async twin of `barrierWriteWithoutTransaction(_:)-(Database)->T`. The
    /// wait for running reads happens on the writer's queue, off the
    /// cooperative thread pool.
    ///
    /// - throws: `CancellationError`, the error of `updates`, or a
    ///   ``DatabaseError`` if the pool is closed.
    public func barrierWriteWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T) async throws -> T
    {
        try readers.checkNotClosed()
        // The writer first, then the readers, as in the blocking version.
        return try await writer.execute { db in try readers.barrier { try updates(db) } }
    }

    /// Like `writeWithoutTransaction(_:)-(Database)->T`, but allowed inside another
    /// write access of this pool.
    ///
    /// - throws: The error of `updates`.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        preconditionNotInRead()
        return try writer.reentrantSync(updates)
    }

    /// Traps inside a read of this pool (accesses are not reentrant), and
    /// inside a barrier write, which holds reads back: the read would wait
    /// for ever. From a write access a read is allowed, as in GRDB: it runs
    /// on a reader connection and sees what is committed.
    /// Returns whether the read starts inside a write of this pool.
    private func preconditionReadCanStart() -> Bool {
        guard let connection = owner.currentConnection else { return false }
        precondition(
            connection === writer,
            "Database methods are not reentrant: this read is nested inside another read of the same pool. "
                + "Use the `db` you already have, or unsafeReentrantRead.")
        precondition(!readers.isBarrierActive, "a read cannot start inside a barrier write of the same pool")
        return true
    }

    /// Traps where a write would wait for ever: inside a write of this pool,
    /// or inside a read that runs inside one. From another read of the pool
    /// a write is allowed, as in GRDB: the read does not hold the writer.
    private func preconditionWriteCanStart() {
        guard let connection = owner.currentConnection else { return }
        precondition(
            connection !== writer && !connection.runsInsideWriterAccess,
            "Database methods are not reentrant: this access is nested inside another access to the same "
                + "database. Use the `db` you already have, or unsafeReentrantRead/unsafeReentrantWrite.")
    }

    /// Runs a read of `reader`, telling it whether it runs inside a write
    /// of this pool (see `preconditionWriteCanStart`).
    private func syncRead<T>(
        _ reader: SerializedDatabase, insideWrite: Bool, _ value: (Database) throws -> T) throws -> T
    {
        try reader.sync { db in
            reader.runsInsideWriterAccess = insideWrite
            defer { reader.runsInsideWriterAccess = false }
            return try value(db)
        }
    }

    /// Traps inside a read of this pool: a writer access from there could
    /// wait for a barrier that waits for the read.
    private func preconditionNotInRead() {
        if let connection = owner.currentConnection {
            precondition(connection === writer, "a write access cannot run inside a read access of the same pool")
        }
    }

    /// Schedules `updates` outside of any transaction and returns at once.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.asyncExecute(updates)
    }

    /// Schedules `updates` once every running read has ended, and returns at once.
    public func asyncBarrierWriteWithoutTransaction(
        _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void)
    {
        DispatchQueue.global().async {
            do {
                try self.barrierWriteWithoutTransaction { db in
                    try db.reopenIfNeeded()
                    updates(.success(db))
                }
            } catch {
                updates(.failure(error))
            }
        }
    }

    // MARK: - Reading

    /// Runs `value` in a read-only deferred transaction on a reader
    /// connection: it sees one stable state while writes commit.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError`` (the pool is
    ///   closed, a write was attempted).
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        let insideWrite = preconditionReadCanStart()
        let reader = try readers.get()
        defer { readers.release(reader) }
        return try syncRead(reader.connection, insideWrite: insideWrite) {
            try $0.readOnlyTransaction(acquiringSnapshot: true, value)
        }
    }

    /// The async twin of `read(_:)-(Database)->T`: it waits for a reader
    /// connection without blocking any thread.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withReader { db in try db.readOnlyTransaction(acquiringSnapshot: true, value) }
    }

    /// Runs `value` on a reader connection, outside of any transaction: two
    /// statements may see different states.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        let insideWrite = preconditionReadCanStart()
        let reader = try readers.get()
        defer { readers.release(reader) }
        return try syncRead(reader.connection, insideWrite: insideWrite, value)
    }

    /// The async twin of `unsafeRead(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withReader(value)
    }

    /// Like `unsafeRead(_:)-(Database)->T`, but inside another access of this pool it
    /// runs on that access's connection (the writer's, in a write).
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if let connection = owner.currentConnection {
            return try connection.reentrantSync(value)
        }
        return try unsafeRead(value)
    }

    /// Schedules `value` in a read-only transaction on a reader connection,
    /// and returns at once.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        withReader { result in
            switch result {
            case .success(let db):
                db.asyncReadOnlyTransaction(acquiringSnapshot: true, value)
            case .failure(let error):
                value(.failure(error))
            }
        }
    }

    /// Schedules `value` on a reader connection, outside of any transaction,
    /// and returns at once.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        withReader(value)
    }

    /// Runs `body` on the queue of a reader connection as soon as one is
    /// free, then gives the connection back. Never blocks the caller.
    private func withReader(_ body: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        readers.asyncGet { result in
            switch result {
            case .success(let reader):
                reader.connection.asyncExecute { db in
                    defer { self.readers.release(reader) }
                    body(db.usable)
                }
            case .failure(let error):
                body(.failure(error))
            }
        }
    }

    /// Runs `value` on a reader connection as soon as one is free, inside
    /// the calling task (see ``SerializedDatabase/execute(_:)``), then gives
    /// the connection back before returning: a caller finds the read over
    /// (it can close the pool, for example).
    private func withReader<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let reader = try await readers.get()
        defer { readers.release(reader) }
        return try await reader.connection.execute { db in
            try db.reopenIfNeeded()
            return try value(db)
        }
    }

    /// From inside `writeWithoutTransaction(_:)-(Database)->T`, outside of a
    /// transaction: schedules `value` on a reader connection that sees exactly
    /// the state the writer has committed at the moment of the call. Returns
    /// once that isolation is established; the writer can then go on writing
    /// while `value` runs.
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        precondition(writer.isOnQueue, "asyncConcurrentRead must be called from a write access of the pool")
        precondition(!readers.isBarrierActive, "asyncConcurrentRead cannot run inside a barrier write: no read can start")
        writer.reentrantSync { db in
            precondition(!db.isInsideTransaction, "asyncConcurrentRead must not be called from inside a transaction")
        }
        let isolated = DispatchSemaphore(value: 0)
        withReader { result in
            switch result {
            case .success(let db):
                do {
                    try db.beginSnapshotTransaction()
                } catch {
                    isolated.signal()
                    value(.failure(error))
                    return
                }
                isolated.signal()
                value(.success(db))
                try? db.rollback()
            case .failure(let error):
                isolated.signal()
                value(.failure(error))
            }
        }
        isolated.wait()
    }

    // MARK: - Snapshots and maintenance

    /// Opens a read-only connection frozen on the state the database has now,
    /// until the snapshot is released or closed. From a write access, it sees
    /// what the writer has committed.
    ///
    /// - throws: A ``DatabaseError``.
    public func makeSnapshot() throws -> DatabaseSnapshot {
        if writer.isOnQueue {
            writer.reentrantSync { db in
                precondition(!db.isInsideTransaction, "makeSnapshot must not be called from inside a transaction")
            }
        }
        let keyContext = self.keyContext
        return try DatabaseSnapshot(
            path: path, configuration: readerConfiguration,
            purpose: "snapshot.\(snapshotNumber.withLock { $0 += 1; return $0 })", keyContext: keyContext,
            onEnd: { [weak writer] in
                // The snapshot may have held WAL frames of an old key.
                guard keyContext.hasOldKeyFramesPending, let writer else { return }
                writer.asyncExecute { _ in }
            })
    }

    /// Closes the idle reader connections now, and the others when their
    /// read ends: later reads open new connections. With
    /// ``Configuration/persistentReadOnlyConnections``, new ones open at once,
    /// in the background.
    public func invalidateReadOnlyConnections() {
        readers.invalidate()
        if configuration.persistentReadOnlyConnections {
            readers.reopenLater()
        }
    }

    /// Interrupts the statements that run on the writer and on the readers:
    /// they stop with `SQLITE_INTERRUPT` (``DatabaseError/isInterruptionError``).
    /// Can be called from any thread.
    public func interrupt() {
        writer.interrupt()
        for reader in readerConnections.withLock({ $0 }) {
            reader.connection?.interrupt()
        }
    }

    /// Runs `updates` in a transaction of the given kind (IMMEDIATE if nil),
    /// which commits if it returns `.commit`, and rolls back if it returns
    /// `.rollback` or throws.
    ///
    /// - throws: The error of `updates`, or a ``DatabaseError``.
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writeWithoutTransaction { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    /// Frees memory like ``releaseMemory()``, without waiting: the writer
    /// releases its caches once its current access ends, and idle readers
    /// are closed.
    public func releaseMemoryEventually() {
        writer.asyncExecute { $0.releaseMemory() }
        if !configuration.persistentReadOnlyConnections {
            readers.invalidate()
        }
    }

    /// Frees as much memory as possible: the writer's caches, and the idle
    /// reader connections, unless ``Configuration/persistentReadOnlyConnections``
    /// keeps them.
    public func releaseMemory() {
        preconditionNotInRead()
        writer.reentrantSync { $0.releaseMemory() }
        if !configuration.persistentReadOnlyConnections {
            readers.invalidate()
        }
    }

    /// Runs a WAL checkpoint on the writer connection.
    ///
    /// - returns: The number of frames in the WAL and the number checkpointed.
    /// - throws: A ``DatabaseError``.
    @discardableResult
    public func checkpoint(_ kind: Database.CheckpointMode = .passive) throws
        -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        try writeWithoutTransaction { try $0.checkpoint(kind) }
    }

    // MARK: - Encryption

    /// Re-encrypts the database with a new passphrase, safely while reads run.
    ///
    /// It waits for running reads, holds new ones back, re-keys through the
    /// writer, and closes every reader: no connection keeps working with the
    /// old key. Reads then resume on connections keyed with the new
    /// passphrase, even when ``Configuration/passphrase`` or a
    /// ``Database/usePassphrase(_:)-(String)`` call in
    /// ``Configuration/prepareDatabase(_:)`` still supplies the old one (a
    /// `PRAGMA key` statement there must be changed by you). Concurrent
    /// calls run one after the other.
    ///
    /// ```swift
    /// try dbPool.changePassphrase("correct horse battery staple")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the database cannot be re-encrypted; it
    ///   then stays readable with the current passphrase and nothing is lost.
    public func changePassphrase(_ passphrase: String) throws {
        try changePassphrase(KeyMaterial(passphrase))
    }

    /// Re-encrypts the database with new passphrase bytes; see
    /// `changePassphrase(_:)-(String)`.
    ///
    /// - throws: A ``DatabaseError`` if the database cannot be re-encrypted; it
    ///   then stays readable with the current passphrase and nothing is lost.
    public func changePassphrase(_ passphrase: Data) throws {
        try changePassphrase(KeyMaterial(passphrase))
    }

    /// Re-encrypts the database with a new passphrase or raw key, safely while
    /// reads run; see `changePassphrase(_:)-(String)`.
    ///
    /// ```swift
    /// try dbPool.changeKey(.rawKey(newKeyBytes))
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the database cannot be re-encrypted; it
    ///   then stays readable with the current key and nothing is lost.
    public func changeKey(_ key: DatabaseKey) throws {
        try changePassphrase(key.material)
    }

    /// The async twin of ``changeKey(_:)``; the wait for running reads
    /// happens off the cooperative thread pool.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public func changeKey(_ key: DatabaseKey) async throws {
        try await runOffCooperativePool { try self.changeKey(key) }
    }

    private func changePassphrase(_ passphrase: KeyMaterial) throws {
        owner.preconditionNotCurrent()
        passphraseChangeLock.lock()
        defer { passphraseChangeLock.unlock() }
        // The file's key-change lock before the writer and the barrier: an
        // enveloped backup that holds it may need a reader to finish.
        try KeyChangeLock.run(forDatabaseAt: path, operation: "change the key of", held: nil) { held in
            try writer.sync { db in
                // No read runs meanwhile. Only a rotation known to have
                // succeeded closes the readers (see `KeyContext.recordChange`),
                // and truncates the WAL, unless a snapshot holds its frames.
                try readers.barrier {
                    try db.rekey(passphrase, held: held)
                }
            }
        }
        if configuration.persistentReadOnlyConnections {
            // Best effort: a reader that fails to reopen now opens on demand,
            // and reports its error to the read that needs it.
            try? readers.openAll()
        }
    }

    /// The async twin of ``changePassphrase(_:)``; the wait for running reads
    /// happens off the cooperative thread pool.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public func changePassphrase(_ passphrase: String) async throws {
        try await changeKey(.passphrase(passphrase))
    }
}
