import Dispatch
import Foundation

/// One SQLite connection and the serial dispatch queue that owns it. All
/// access to the connection goes through `sync`, `reentrantSync`, `execute`
/// or `asyncExecute`.
final class SerializedDatabase: @unchecked Sendable {
    // Safe: `db` is only touched on `queue`, which runs one block at a time.
    private let queue: DispatchQueue
    private let db: Database
    /// Runs the async accesses on `queue`, inside their tasks.
    private let actor: ConnectionActor
    /// How the cancellation of an async access's task reaches the connection.
    private let cancellation: AccessCancellation
    /// What `queue` says about the code it runs (see ``QueueMark``).
    private let mark: QueueMark
    /// Set for a snapshot, whose transaction spans all its accesses.
    private let keepsTransactionsOpen: Bool
    /// Whether the current access is a pool read that runs inside a write
    /// of the same pool (on the writer's thread): a write from there would
    /// wait for ever. Only touched by the code of that access, on `queue`.
    var runsInsideWriterAccess = false
    /// Debug builds: the thread that runs the current access (see
    /// `DebugInvariants`).
    private let accessThread = LockedValue<ObjectIdentifier?>(nil)

    init(
        path: String,
        configuration: Configuration,
        defaultLabel: String,
        purpose: String? = nil,
        usesURI: Bool = false,
        keyContext: KeyContext? = nil,
        owner: ConnectionOwner? = nil,
        keepsTransactionsOpen: Bool = false) throws
    {
        self.keepsTransactionsOpen = keepsTransactionsOpen
        // GRDB's names: the user's label, or the default one, followed by
        // the purpose (`GRDB.DatabasePool.writer`, `Toreador.reader.1`). The
        // connection's configuration keeps the user's label.
        let label = (configuration.label ?? defaultLabel) + (purpose.map { "." + $0 } ?? "")
        queue = configuration.readonly
            ? configuration.makeReaderDispatchQueue(label: label)
            : configuration.makeWriterDispatchQueue(label: label)
        mark = QueueMark(owner: owner)
        queue.setSpecific(key: QueueMark.key, value: mark)
        // Open on the queue, so the connection is only ever touched there.
        db = try queue.sync {
            try Database(
                path: path, description: label, configuration: configuration,
                usesURI: usesURI, cipherState: CipherState(keyContext: keyContext))
        }
        actor = ConnectionActor(queue: queue)
        cancellation = db.accessCancellation
        // The mark is immutable, and `getSpecific` is thread-safe. An access
        // nested in an access of another connection (a backup reads its
        // source inside a write of its destination) runs on the outer
        // access's thread, off this queue: the thread is recorded too.
        let mark = self.mark
        let accessThread = self.accessThread
        db.runsInAccess = {
            QueueMark.current === mark
                || accessThread.withLock { $0 } == ObjectIdentifier(Thread.current)
        }
        mark.connection = self
    }

    /// Interrupts the statement that runs on the connection, from any thread.
    func interrupt() {
        db.interrupt()
    }

    /// Whether the current code runs on this connection's queue.
    var isOnQueue: Bool { QueueMark.current === mark }

    /// How many accesses changed the database; readable from any thread.
    var changeGeneration: ChangeGeneration { db.changeGeneration }

    /// Runs `block` with the connection and waits for it. Traps when called
    /// from inside another access to the same connection, which would deadlock.
    func sync<T>(_ block: (Database) throws -> T) rethrows -> T {
        precondition(
            !isOnQueue,
            "Database methods are not reentrant: this access is nested inside another access to the same "
                + "database. Use the `db` you already have, or unsafeReentrantRead/unsafeReentrantWrite.")
        return try queue.sync { try access(block) }
    }

    /// Runs `block` with the connection, directly if already on its queue.
    func reentrantSync<T>(_ block: (Database) throws -> T) rethrows -> T {
        if isOnQueue {
            return try block(db)
        }
        return try queue.sync { try access(block) }
    }

    /// A top-level access: checks that no transaction outlives it.
    private func access<T>(_ block: (Database) throws -> T) rethrows -> T {
        let outerThread = enterAccess()
        defer { leaveAccess(outerThread) }
        defer { endAccess() }
        return try block(db)
    }

    /// Debug builds: records the thread of the access that begins, and
    /// returns the one of the access it interrupts, if any.
    @inline(__always)
    private func enterAccess() -> ObjectIdentifier? {
        #if DEBUG
        let current = ObjectIdentifier(Thread.current)
        return accessThread.withLock { thread in
            defer { thread = current }
            return thread
        }
        #else
        return nil
        #endif
    }

    @inline(__always)
    private func leaveAccess(_ outerThread: ObjectIdentifier?) {
        #if DEBUG
        accessThread.withLock { $0 = outerThread }
        #endif
    }

    private func endAccess() {
        if !keepsTransactionsOpen { db.endAccess() }
    }

    /// Runs `block` on the connection's queue without blocking the caller's
    /// thread: the task suspends until the block is done. The block runs
    /// inside the task: it sees its task-local values.
    ///
    /// Cancelling the task interrupts the access: `block` does not start,
    /// or its running statement stops and the next ones do not run; they
    /// throw `CancellationError` (see ``AccessCancellation``). An access
    /// that returned stays a success, whenever the cancellation arrives.
    ///
    /// - throws: `CancellationError`, or the error of `block`.
    func execute<T: Sendable>(_ block: @Sendable (Database) throws -> T) async throws -> T {
        let cancellation = self.cancellation
        // The cancellation handler outlives the access: it stays installed
        // until the task has resumed from `actor.run`, while the queue may
        // already run the access of another task. It cancels only this one.
        let accessID = cancellation.makeAccessID()
        return try await withTaskCancellationHandler {
            try await actor.run {
                // Defers run in reverse order: the end of the access (which
                // may checkpoint) runs once the cancellation is disarmed.
                let outerThread = self.enterAccess()
                defer { self.leaveAccess(outerThread) }
                defer { self.endAccess() }
                cancellation.arm(accessID)
                defer { cancellation.disarm() }
                // A cancellation before `arm` found no armed access: the
                // task is cancelled already, and the access does not start.
                try Task.checkCancellation()
                return try block(self.db)
            }
        } onCancel: {
            cancellation.cancel(accessID)
        }
    }

    /// Schedules `block` on the connection's queue and returns at once.
    func asyncExecute(_ block: @escaping @Sendable (Database) -> Void) {
        queue.async {
            self.access(block)
        }
    }
}

/// The value that marks the dispatch queue of a connection: the queue tells
/// the code it runs which connection it belongs to, and which pool owns it.
///
/// Every queue is marked under one key, created once and never freed, and
/// the mark is compared by identity. Dispatch finds a value by the address
/// of its key, and a queue keeps the values set on it after their key is
/// gone: the main queue keeps them for the life of the process. A key
/// created for each connection could be allocated where a freed key of
/// other code used to be (GRDB's observation tests mark the main queue
/// with short-lived keys), and the new connection then took the main queue
/// for its own: "Database methods are not reentrant" on a first access.
final class QueueMark: @unchecked Sendable {
    /// Never freed: no key allocated later can land on its address.
    static let key = DispatchSpecificKey<QueueMark>()

    /// The mark of the connection queue that runs the current code, if any.
    static var current: QueueMark? { DispatchQueue.getSpecific(key: key) }

    /// The pool of the connection, if any.
    let owner: ConnectionOwner?

    // Safe: written once, at the end of `SerializedDatabase.init`, before the
    // queue runs any block that reads it; read only on the marked queue.
    weak var connection: SerializedDatabase?

    init(owner: ConnectionOwner?) {
        self.owner = owner
    }
}

/// The identity of one pool, held by the marks of its connections' queues,
/// so that an access nested in another access of the same pool is detected,
/// and the connection of the enclosing access can be found.
final class ConnectionOwner: Sendable {
    /// The connection whose queue runs the current code, if it is one of the owner's.
    var currentConnection: SerializedDatabase? {
        guard let mark = QueueMark.current, mark.owner === self else { return nil }
        return mark.connection
    }

    /// Traps if the current code runs on one of the owner's connections.
    func preconditionNotCurrent() {
        precondition(
            QueueMark.current?.owner !== self,
            "Database methods are not reentrant: this access is nested inside another access to the same "
                + "database. Use the `db` you already have, or unsafeReentrantRead/unsafeReentrantWrite.")
    }
}

/// A connection that its queue can name without keeping it alive.
final class WeakConnection: @unchecked Sendable {
    // Safe: the reference is written once, in `init`.
    weak var connection: SerializedDatabase?
    init(_ connection: SerializedDatabase) {
        self.connection = connection
    }
}
