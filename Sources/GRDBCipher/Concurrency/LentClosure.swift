import Foundation

/// GRDB's async accesses take non-escaping closures: the closure only runs
/// while the caller awaits. They are scheduled on dispatch queues, which need
/// escaping closures, so each async access lends its closure through this
/// box for the length of the access, and takes it back before returning.
final class LentClosure<T>: @unchecked Sendable {
    // Safe: `closure` is only read and written while `lock` is held.
    private let lock = NSLock()
    private var closure: (@Sendable (Database) throws -> T)?

    init(_ closure: @escaping @Sendable (Database) throws -> T) {
        self.closure = closure
    }

    /// Runs the closure; traps if it was taken back already (the access
    /// ended without waiting for it, a bug).
    func callAsFunction(_ db: Database) throws -> T {
        guard let closure = lock.withLock({ closure }) else {
            preconditionFailure("a database access ran its closure after the access ended")
        }
        return try closure(db)
    }

    /// Releases the closure: nothing can run it anymore.
    func takeBack() {
        lock.withLock { closure = nil }
    }
}

/// Runs `body` with an escaping stand-in for `closure`, which must only be
/// called before `body` returns.
func withLentClosure<T, R>(
    _ closure: @Sendable (Database) throws -> T,
    _ body: (_ standIn: @escaping @Sendable (Database) throws -> T) async throws -> R) async throws -> R
{
    try await withoutActuallyEscaping(closure) { escapable in
        let lent = LentClosure(escapable)
        defer { lent.takeBack() }
        return try await body { db in try lent(db) }
    }
}
