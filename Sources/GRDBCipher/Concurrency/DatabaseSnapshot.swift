import Foundation

/// A read-only view of a database frozen on one state, made by
/// ``DatabasePool/makeSnapshot()``. Writes that commit after it was made are
/// not visible. It holds a read transaction (and so its WAL frames) until it
/// is closed or released.
///
/// ```swift
/// let snapshot = try dbPool.makeSnapshot()
/// try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
/// let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! } // not 0
/// ```
public final class DatabaseSnapshot: DatabaseSnapshotReader {
    private let connection: SerializedDatabase

    /// The path of the database file.
    public let path: String

    /// The configuration of the snapshot's read-only connection.
    public let configuration: Configuration

    /// Called once the snapshot's transaction has ended.
    private let onEnd: @Sendable () -> Void

    init(
        path: String, configuration: Configuration, purpose: String, keyContext: KeyContext,
        onEnd: @escaping @Sendable () -> Void) throws
    {
        self.path = path
        self.configuration = configuration
        self.onEnd = onEnd
        connection = try SerializedDatabase(
            path: path, configuration: configuration, defaultLabel: "GRDB.DatabasePool", purpose: purpose,
            keyContext: keyContext, keepsTransactionsOpen: true)
        try connection.sync { try $0.beginSnapshotTransaction() }
    }

    /// Ends the snapshot's transaction and closes its connection.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_BUSY`) if a statement made in
    ///   a read is still alive. The snapshot then stays open, on the same
    ///   frozen state.
    public func close() throws {
        try connection.sync { db in
            // Closing rolls back the snapshot's transaction; a snapshot that
            // cannot close stays open, on the same frozen state.
            try db.close()
        }
        onEnd()
    }

    deinit {
        // As in GRDB, a released snapshot commits its transaction (a closed
        // one has none). The connection closes right after this: what
        // `onEnd` schedules usually runs once it is closed.
        connection.reentrantSync { db in
            if db.isInsideTransaction { try? db.commit() }
        }
        onEnd()
    }

    /// Interrupts the statement that runs on the snapshot, if any.
    public func interrupt() {
        connection.interrupt()
    }

    /// Runs `value` on the frozen state.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func read<T>(_ value: (Database) throws -> T) rethrows -> T {
        // A closed snapshot's statements throw: no check needed here.
        try connection.sync(value)
    }

    /// The async twin of `read(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await connection.execute { db in
            try db.reopenIfNeeded()
            return try value(db)
        }
    }

    /// Same as `read(_:)-(Database)->T`: a snapshot is always isolated.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try read(value)
    }

    /// Same as `read(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await read(value)
    }

    /// Like `read(_:)-(Database)->T`, but allowed inside another access of the snapshot.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try connection.reentrantSync(value)
    }

    /// Schedules `value` on the frozen state and returns at once.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        connection.asyncExecute { db in
            value(db.usable)
        }
    }

    /// Same as ``asyncRead(_:)``.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncRead(value)
    }
}
