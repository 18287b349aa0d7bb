// The async twins of DatabaseQueue's methods. They suspend the calling task
// and run the closure on the queue's own dispatch queue, so they never block a
// thread of the cooperative pool.

extension DatabaseQueue {
    /// Runs `value` in a read-only transaction and returns its result.
    ///
    /// ```swift
    /// let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
    /// ```
    ///
    /// - throws: `CancellationError` if the task is cancelled before the read
    ///   starts, the error of `value`, or a ``DatabaseError``.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute { try $0.readOnlyTransaction(value) }
    }

    /// Runs `value` with no transaction and no write protection.
    ///
    /// - throws: `CancellationError`, or the error of `value`.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute(value)
    }

    /// Runs `updates` outside of any transaction.
    ///
    /// - throws: `CancellationError`, or the error of `updates`.
    public func writeWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T) async throws -> T
    {
        try await writer.execute(updates)
    }

    /// Runs `updates` outside of any transaction.
    ///
    /// - throws: `CancellationError`, or the error of `updates`.
    public func barrierWriteWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T) async throws -> T
    {
        try await writer.execute(updates)
    }

    /// Runs `updates` outside of any transaction.
    ///
    /// - throws: `CancellationError`, or the error of `updates`.
    public func inDatabase<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute(updates)
    }

    /// Re-encrypts the database with a new passphrase.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError`` if the database
    ///   cannot be re-encrypted; it then stays readable with the current passphrase.
    public func changePassphrase(_ passphrase: String) async throws {
        try await changeKey(.passphrase(passphrase))
    }

    /// Re-encrypts the database with a new passphrase or raw key; see
    /// ``Database/changeKey(_:)``.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError`` if the database
    ///   cannot be re-encrypted; it then stays readable with the current key.
    public func changeKey(_ key: DatabaseKey) async throws {
        // Once started, a rotation runs to its proven end: a cancellation
        // interrupts none of its steps.
        try await writer.execute { db in try db.ignoringCancellation { try db.changeKey(key) } }
    }

    /// Closes the connection.
    ///
    /// - throws: A ``DatabaseError`` if statements are still alive.
    public func close() async throws {
        try await writer.execute { try $0.close() }
    }
}
