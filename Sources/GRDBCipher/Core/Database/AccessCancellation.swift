import CSQLCipher
import Foundation
import Synchronization

/// How Task cancellation reaches the async access that runs on a connection.
///
/// An async access arms it while its closure runs. Cancelling the task then
/// marks the access cancelled, from whatever thread the cancellation comes,
/// and interrupts the statement that runs (`sqlite3_interrupt`). From then
/// until the access ends, the connection's statements throw
/// `CancellationError` instead of running, except those that leave a
/// transaction or a read-only mode, and a statement that SQLite interrupted
/// throws `CancellationError` instead of `SQLITE_INTERRUPT`. A cancellation
/// outside of an armed access, or after it ended, changes nothing.
///
/// Each async access has its own identifier (``makeAccessID()``), and a
/// cancellation names the access of its task: the task of an access that
/// ended may be cancelled while it resumes, when the next access, of
/// another task, is armed already. That cancellation must not reach it.
final class AccessCancellation: Sendable {
    private struct State {
        /// The identifier of the last access made.
        var lastAccessID: UInt64 = 0
        /// The async access that runs, if any.
        var armedAccessID: UInt64?
        var isCancelled = false
        /// Depth of ``ignoring(_:)``: work that must finish even in a
        /// cancelled task (transaction observers after a commit).
        var ignoringDepth = 0
        var stopsStatements: Bool { isCancelled && ignoringDepth == 0 }
    }

    private let state = Mutex(State())
    /// `State.stopsStatements`, read before every statement without a lock.
    private let stopsStatements = Atomic<Bool>(false)
    private let interrupt: @Sendable () -> Void

    /// - parameter interrupt: Interrupts the statement that runs on the
    ///   connection, if any; called from any thread.
    init(interrupt: @escaping @Sendable () -> Void) {
        self.interrupt = interrupt
    }

    /// Whether statements must throw `CancellationError`: the access is
    /// cancelled and not inside ``ignoring(_:)``.
    @inline(__always)
    var isStoppingStatements: Bool { stopsStatements.load(ordering: .relaxed) }

    /// A new identifier, for an async access about to be scheduled.
    func makeAccessID() -> UInt64 {
        state.withLock { state in
            state.lastAccessID &+= 1
            return state.lastAccessID
        }
    }

    /// Begins the async access `accessID`: its cancellation counts from now on.
    func arm(_ accessID: UInt64) {
        state.withLock { $0.armedAccessID = accessID }
    }

    /// Ends an async access: a cancellation does nothing until the next one.
    func disarm() {
        state.withLock { state in
            state.armedAccessID = nil
            state.isCancelled = false
            stopsStatements.store(false, ordering: .relaxed)
        }
    }

    /// Cancels the access `accessID` if it is the armed one: from any thread.
    /// The statement is interrupted under the lock, so that `disarm` cannot
    /// end the access meanwhile, and the interruption cannot reach the
    /// statement of the next access.
    func cancel(_ accessID: UInt64) {
        state.withLock { state in
            guard state.armedAccessID == accessID, !state.isCancelled else { return }
            state.isCancelled = true
            stopsStatements.store(state.stopsStatements, ordering: .relaxed)
            if state.stopsStatements { interrupt() }
        }
    }

    /// Runs `body` with cancellation ignored: its statements run, and a
    /// cancellation that arrives meanwhile interrupts nothing. Once it ends,
    /// the statements of a cancelled access throw again.
    func ignoring<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { state in
            state.ignoringDepth += 1
            stopsStatements.store(false, ordering: .relaxed)
        }
        defer {
            state.withLock { state in
                state.ignoringDepth -= 1
                stopsStatements.store(state.stopsStatements, ordering: .relaxed)
            }
        }
        return try body()
    }
}

extension Database {
    /// Throws `CancellationError` if the cancelled access must not run
    /// `statement`. A rollback of the transaction runs, and so do the commit
    /// of a read-only access and the `query_only` pragmas that end one: they
    /// leave the connection as the next access expects it.
    @inline(never)
    func checkCancellation(before statement: Statement) throws {
        switch statement.facts.transactionEffect {
        case .rollbackTransaction:
            return
        case .commitTransaction where readOnlyDepth > 0 || configuration.readonly:
            return
        default:
            break
        }
        if statement.facts.isPragma, statement.sql.range(of: "query_only", options: .caseInsensitive) != nil {
            return
        }
        throw CancellationError()
    }

    /// Whether a statement that failed with `code` failed because its
    /// access was cancelled: it then throws `CancellationError`, the only
    /// error a cancelled task sees, rather than `SQLITE_INTERRUPT`.
    @inline(__always)
    func failedFromCancellation(_ code: CInt) -> Bool {
        let primary = code & 0xFF
        return (primary == SQLITE_INTERRUPT || primary == SQLITE_ABORT) && accessCancellation.isStoppingStatements
    }

    /// Runs `body` so that a cancellation of the current async access
    /// neither interrupts it nor makes its statements throw.
    func ignoringCancellation<T>(_ body: () throws -> T) rethrows -> T {
        try accessCancellation.ignoring(body)
    }
}
