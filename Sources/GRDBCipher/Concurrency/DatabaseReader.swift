/// A type that reads a database: ``DatabaseQueue``, ``DatabasePool`` and
/// ``DatabaseSnapshot``. Write code that only reads against it:
///
/// ```swift
/// func playerCount(_ reader: some DatabaseReader) async throws -> Int {
///     try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
/// }
/// ```
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the reader.
    var configuration: Configuration { get }

    /// The path of the database.
    var path: String { get }

    /// Closes the database connections. Later accesses throw a ``DatabaseError``.
    ///
    /// - throws: A ``DatabaseError`` if an access is running or statements are alive.
    func close() throws

    /// Runs `value` in a read-only transaction that sees one stable state.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` in a read-only transaction, without blocking the
    /// cooperative thread pool.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `value` with a connection that may not be isolated in a transaction.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` with a connection that may not be isolated in a
    /// transaction, without blocking the cooperative thread pool.
    ///
    /// - throws: `CancellationError`, the error of `value`, or a ``DatabaseError``.
    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Like `unsafeRead`, but allowed inside another access of the same reader.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Schedules `value` in a read-only transaction and returns at once.
    /// `value` receives the connection, or the error that prevented the read.
    func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Schedules `value` with a connection that may not be isolated in a
    /// transaction, and returns at once.
    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Interrupts the statements that run on the connections, from any
    /// thread: they stop with `SQLITE_INTERRUPT`.
    func interrupt()
}

/// A type that reads and writes a database: ``DatabaseQueue`` and ``DatabasePool``.
///
/// ```swift
/// func addPlayer(_ writer: some DatabaseWriter, name: String) async throws {
///     try await writer.write { db in
///         try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [name])
///     }
/// }
/// ```
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` with the writer connection, outside of any transaction.
    ///
    /// - throws: The error of `updates`.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Runs `updates` with the writer connection, outside of any transaction,
    /// without blocking the cooperative thread pool.
    ///
    /// - throws: `CancellationError`, or the error of `updates`.
    func writeWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` with the writer connection once every running read has
    /// ended, with no read running meanwhile.
    ///
    /// - throws: The error of `updates`, or a ``DatabaseError``.
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// The async twin of `barrierWriteWithoutTransaction(_:)-(Database)->T`.
    ///
    /// - throws: `CancellationError`, the error of `updates`, or a ``DatabaseError``.
    func barrierWriteWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Like `writeWithoutTransaction`, but allowed inside another write access.
    ///
    /// - throws: The error of `updates`.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Schedules `updates` outside of any transaction and returns at once.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// Schedules `updates` once every running read has ended, and returns at once.
    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// From inside `writeWithoutTransaction(_:)-(Database)->T`, outside of a transaction:
    /// schedules `value` on a read-only connection that sees exactly the
    /// state the writer has committed at the moment of the call, and returns
    /// once that isolation is established. The writer can then go on writing
    /// while `value` runs.
    func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseWriter {
    /// Runs `updates` in a transaction that commits if it returns and rolls
    /// back if it throws.
    ///
    /// ```swift
    /// try writer.write { db in
    ///     try db.execute(sql: "UPDATE player SET score = score + 1")
    /// }
    /// ```
    ///
    /// - throws: The error of `updates`, or a ``DatabaseError`` if the
    ///   transaction cannot commit.
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { try $0.writeTransaction(nil, updates) }
    }

    /// Runs `updates` in a transaction, without blocking the cooperative
    /// thread pool.
    ///
    /// - throws: `CancellationError`, the error of `updates`, or a ``DatabaseError``.
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { try $0.writeTransaction(nil, updates) }
    }

    /// Schedules `updates` in a transaction and returns at once; `completion`
    /// then receives the connection and the result.
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void)
    {
        asyncWriteWithoutTransaction { db in
            completion(db, Result { try db.writeTransaction(nil, updates) })
        }
    }

    /// Another name for ``asyncConcurrentRead(_:)``.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncConcurrentRead(value)
    }
}
