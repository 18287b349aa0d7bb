import Foundation

/// A database connection that serializes all accesses, for one file or an
/// in-memory database.
///
/// ```swift
/// var config = Configuration()
/// config.passphrase = "secret"
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
///
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try await dbQueue.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// Accesses are not reentrant: calling `read` or `write` from inside another
/// access of the same queue traps with a clear message instead of deadlocking.
public final class DatabaseQueue: DatabaseWriter {
    let writer: SerializedDatabase

    /// The path of the database file, or ":memory:" for an in-memory database.
    public let path: String

    /// The configuration of the queue.
    public let configuration: Configuration

    /// Opens or creates the database file at `path`.
    ///
    /// - throws: A ``DatabaseError`` if the file cannot be opened, the key is
    ///   wrong, or the linked library is not SQLCipher 4.5+.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        if !configuration.readonly { AbandonedFiles.remove(besideDatabaseAt: path) }
        writer = try SerializedDatabase(
            path: path, configuration: configuration, defaultLabel: "GRDB.DatabaseQueue",
            keyContext: KeyContext(reusesDerivedKeys: false))
    }

    /// Opens an in-memory database. With a name, every queue opened with the
    /// same name in the process shares the database, which lives as long as
    /// one of them; without a name (`DatabaseQueue()`), it is private.
    ///
    /// - throws: A ``DatabaseError``.
    public init(named name: String? = nil, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        if let name {
            let escaped = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
            path = "file:\(escaped)?mode=memory&cache=shared"
            writer = try SerializedDatabase(
                path: path, configuration: configuration, defaultLabel: "GRDB.DatabaseQueue", usesURI: true,
                keyContext: KeyContext(reusesDerivedKeys: false))
        } else {
            path = ":memory:"
            writer = try SerializedDatabase(
                path: path, configuration: configuration, defaultLabel: "GRDB.DatabaseQueue",
                keyContext: KeyContext(reusesDerivedKeys: false))
        }
    }

    /// Closes the connection. Later accesses throw a ``DatabaseError``.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_BUSY`) if statements made in an
    ///   access are still alive; the connection then stays open.
    public func close() throws {
        try writer.sync { try $0.close() }
    }

    /// Frees as much memory as possible (the connection's caches).
    public func releaseMemory() {
        writer.reentrantSync { $0.releaseMemory() }
    }

    // MARK: - Reading

    /// Runs `value` in a read-only transaction and returns its result.
    /// Attempts to write fail with `SQLITE_READONLY`.
    ///
    /// - throws: The error of `value`, or a ``DatabaseError``.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.sync { try $0.readOnlyTransaction(value) }
    }

    /// Runs `value` with the connection, with no transaction and no write
    /// protection.
    ///
    /// - throws: The error of `value`.
    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try writer.sync(value)
    }

    /// Like `unsafeRead(_:)-(Database)->T`, but allowed inside another access of this queue.
    ///
    /// - throws: The error of `value`.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSync(value)
    }

    // MARK: - Writing

    /// Runs `updates` with the connection, outside of any transaction.
    ///
    /// - throws: The error of `updates`.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.sync(updates)
    }

    /// Runs `updates` with the connection, outside of any transaction. A queue
    /// has one connection, so this is `writeWithoutTransaction(_:)-(Database)->T`.
    ///
    /// - throws: The error of `updates`.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync(updates)
    }

    /// Runs `updates` with the connection, outside of any transaction.
    ///
    /// - throws: The error of `updates`.
    public func inDatabase<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.sync(updates)
    }

    /// Like `writeWithoutTransaction(_:)-(Database)->T`, but allowed inside another
    /// access of this queue.
    ///
    /// - throws: The error of `updates`.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSync(updates)
    }

    /// Runs `updates` in a transaction of the given kind (IMMEDIATE if nil),
    /// which commits if it returns `.commit`, and rolls back if it returns
    /// `.rollback` or throws.
    ///
    /// ```swift
    /// try dbQueue.inTransaction { db in
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    ///
    /// - throws: The error of `updates`, or a ``DatabaseError``.
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writer.sync { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    /// Interrupts the statement that runs on the connection, if any: it
    /// stops with `SQLITE_INTERRUPT`. Can be called from any thread.
    public func interrupt() {
        writer.interrupt()
    }

    /// Re-encrypts the database with a new passphrase; see
    /// ``Database/changePassphrase(_:)-(String)``. Reopen other connections to the file
    /// with the new passphrase.
    ///
    /// ```swift
    /// try dbQueue.changePassphrase("correct horse battery staple")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the database cannot be re-encrypted; it
    ///   then stays readable with the current passphrase.
    public func changePassphrase(_ passphrase: String) throws {
        try changeKey(KeyMaterial(passphrase))
    }

    /// Re-encrypts the database with new passphrase bytes; see
    /// `changePassphrase(_:)-(String)`.
    ///
    /// - throws: A ``DatabaseError`` if the database cannot be re-encrypted; it
    ///   then stays readable with the current passphrase.
    public func changePassphrase(_ passphrase: Data) throws {
        try KeyMaterial.checkLength(passphrase.count)   // before copying the bytes
        try changeKey(KeyMaterial(passphrase))
    }

    /// Re-encrypts the database with a new passphrase or raw key; see
    /// ``Database/changeKey(_:)``.
    ///
    /// ```swift
    /// try dbQueue.changeKey(.rawKey(newKeyBytes))
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the database cannot be re-encrypted; it
    ///   then stays readable with the current key.
    public func changeKey(_ key: DatabaseKey) throws {
        try changeKey(key.material)
    }

    /// Takes the file's key-change lock before the connection, then rekeys.
    private func changeKey(_ key: KeyMaterial) throws {
        if path.isEmpty || path == ":memory:" || path.hasPrefix("file:") {
            try writer.sync { try $0.rekey(key) }
            return
        }
        try KeyChangeLock.run(forDatabaseAt: path, operation: "change the key of", held: nil) { held in
            try writer.sync { try $0.rekey(key, held: held) }
        }
    }

    // MARK: - Callbacks

    /// Schedules `value` in a read-only transaction and returns at once.
    /// `value` receives the connection, or the error that prevented the read.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.asyncExecute { db in
            db.asyncReadOnlyTransaction(value)
        }
    }

    /// Schedules `value` with the connection, with no transaction and no write
    /// protection, and returns at once.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.asyncExecute { db in
            value(db.usable)
        }
    }

    /// Schedules `updates` outside of any transaction and returns at once.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.asyncExecute(updates)
    }

    /// Schedules `updates` outside of any transaction and returns at once. A
    /// queue has one connection, so no read can run meanwhile.
    public func asyncBarrierWriteWithoutTransaction(
        _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void)
    {
        writer.asyncExecute { db in
            updates(db.usable)
        }
    }

    /// Runs `value` at once in a read-only transaction, on the queue's only
    /// connection: it sees the state the writer has committed, and the writer
    /// waits for it. Must be called from `writeWithoutTransaction(_:)-(Database)->T`,
    /// outside of a transaction.
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.reentrantSync { db in
            precondition(!db.isInsideTransaction, "asyncConcurrentRead must not be called from inside a transaction")
            db.asyncReadOnlyTransaction(value)
        }
    }
}
