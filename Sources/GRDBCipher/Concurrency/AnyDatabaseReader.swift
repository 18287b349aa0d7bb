/// A reader whose state never changes: a snapshot. Code that needs stable
/// reads across accesses can require it.
public protocol DatabaseSnapshotReader: DatabaseReader {}

extension DatabaseSnapshotReader {
    /// Runs `value` with the snapshot's connection, inside another access of
    /// the same snapshot or not: a snapshot never changes, so nested reads
    /// are safe.
    ///
    /// ```swift
    /// let count = try snapshot.reentrantRead { db in
    ///     try Player.fetchCount(db)
    /// }
    /// ```
    ///
    /// - throws: The error of `value`, or a ``DatabaseError`` (the snapshot
    ///   is closed).
    public func reentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try unsafeReentrantRead(value)
    }
}

/// A type-erased ``DatabaseReader``: it forwards every operation to the
/// reader it wraps.
///
/// ```swift
/// let reader = AnyDatabaseReader(dbPool)
/// let count = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
/// ```
public final class AnyDatabaseReader: DatabaseReader {
    let base: any DatabaseReader

    /// Creates a reader that forwards to `base`.
    public init(_ base: any DatabaseReader) {
        self.base = base
    }

    /// The configuration of the wrapped reader.
    public var configuration: Configuration { base.configuration }

    /// The path of the wrapped reader.
    public var path: String { base.path }

    /// Closes the wrapped reader.
    ///
    /// - throws: A ``DatabaseError``.
    public func close() throws { try base.close() }

    /// Interrupts the wrapped reader's statements.
    public func interrupt() { base.interrupt() }

    /// Runs `value` in a read access of the wrapped reader.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func read<T>(_ value: (Database) throws -> T) throws -> T { try base.read(value) }

    /// The async twin of `read(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }

    /// Runs `value` in an unisolated access of the wrapped reader.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T { try base.unsafeRead(value) }

    /// The async twin of `unsafeRead(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.unsafeRead(value)
    }

    /// Runs `value`, reentrantly, in the wrapped reader.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantRead(value)
    }

    /// Schedules a read access of the wrapped reader.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncRead(value)
    }

    /// Schedules an unisolated access of the wrapped reader.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncUnsafeRead(value)
    }
}

/// A type-erased ``DatabaseWriter``: it forwards every operation to the
/// writer it wraps.
///
/// ```swift
/// let writer = AnyDatabaseWriter(dbQueue)
/// try writer.write { db in try db.execute(sql: "DELETE FROM player") }
/// ```
public final class AnyDatabaseWriter: DatabaseWriter {
    let base: any DatabaseWriter

    /// Creates a writer that forwards to `base`.
    public init(_ base: any DatabaseWriter) {
        self.base = base
    }

    /// The configuration of the wrapped writer.
    public var configuration: Configuration { base.configuration }

    /// The path of the wrapped writer.
    public var path: String { base.path }

    /// Closes the wrapped writer.
    ///
    /// - throws: A ``DatabaseError``.
    public func close() throws { try base.close() }

    /// Interrupts the wrapped writer's statements.
    public func interrupt() { base.interrupt() }

    /// Runs `value` in a read access of the wrapped writer.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func read<T>(_ value: (Database) throws -> T) throws -> T { try base.read(value) }

    /// The async twin of `read(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }

    /// Runs `value` in an unisolated access of the wrapped writer.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T { try base.unsafeRead(value) }

    /// The async twin of `unsafeRead(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.unsafeRead(value)
    }

    /// Runs `value`, reentrantly, in the wrapped writer.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantRead(value)
    }

    /// Schedules a read access of the wrapped writer.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncRead(value)
    }

    /// Schedules an unisolated access of the wrapped writer.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncUnsafeRead(value)
    }

    /// Runs `updates` outside of any transaction on the wrapped writer.
    ///
    /// - throws: The error of `updates`.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.writeWithoutTransaction(updates)
    }

    /// The async twin of `writeWithoutTransaction(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, or the error of `updates`.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await base.writeWithoutTransaction(updates)
    }

    /// Runs `updates` once no read runs on the wrapped writer.
    ///
    /// - throws: The error of `updates`, or a ``DatabaseError``.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.barrierWriteWithoutTransaction(updates)
    }

    /// The async twin of `barrierWriteWithoutTransaction(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `updates`, or a ``DatabaseError``.
    public func barrierWriteWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T) async throws -> T
    {
        try await base.barrierWriteWithoutTransaction(updates)
    }

    /// Runs `updates`, reentrantly, on the wrapped writer.
    ///
    /// - throws: The error of `updates`.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.unsafeReentrantWrite(updates)
    }

    /// Schedules `updates` on the wrapped writer.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        base.asyncWriteWithoutTransaction(updates)
    }

    /// Schedules `updates` once no read runs on the wrapped writer.
    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncBarrierWriteWithoutTransaction(updates)
    }

    /// Schedules a read of what the wrapped writer has committed; see
    /// ``DatabaseWriter/asyncConcurrentRead(_:)``.
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncConcurrentRead(value)
    }
}

extension DatabaseReader {
    /// The pool that does the work of this reader: the reader itself, or the
    /// pool that an ``AnyDatabaseReader`` or ``AnyDatabaseWriter`` wraps.
    /// The operations that take another path on a pool (reading the file on
    /// a reader connection, observing from a snapshot) ask this, so that a
    /// wrapped pool behaves as the pool.
    var underlyingPool: DatabasePool? {
        if let dbPool = self as? DatabasePool { return dbPool }
        if let wrapper = self as? AnyDatabaseReader { return wrapper.base.underlyingPool }
        if let wrapper = self as? AnyDatabaseWriter { return wrapper.base.underlyingPool }
        return nil
    }
}
