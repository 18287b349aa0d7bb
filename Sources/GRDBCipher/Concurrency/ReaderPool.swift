import Dispatch
import Foundation

/// The read-only connections of a pool: opened lazily, up to a maximum,
/// reused, and handed to waiting readers in order.
///
/// A barrier (used to change the passphrase, or by barrier writes) stops
/// handing out connections, waits for running reads to end, and runs alone.
final class ReaderPool: @unchecked Sendable {
    // Safe: every stored property below `lock` is only touched while it is held.
    private let lock = NSCondition()
    private var idle: [Reader] = []
    private var waiters: [Waiter] = []
    private var nextWaiterID = 0
    private var openCount = 0
    private var busyCount = 0
    private var barrierCount = 0
    private var generation = 0
    private var isClosed = false

    private let maximumCount: Int
    private let openConnection: @Sendable () throws -> SerializedDatabase
    /// Called, outside the lock, each time the last running read ends.
    private let onAllReadsEnded: @Sendable () -> Void

    /// A read that waits for a connection.
    private struct Waiter {
        let id: Int
        let completion: @Sendable (Result<Reader, any Error>) -> Void
    }

    /// A connection lent to one read.
    final class Reader: Sendable {
        let connection: SerializedDatabase
        let generation: Int
        init(connection: SerializedDatabase, generation: Int) {
            self.connection = connection
            self.generation = generation
        }
    }

    init(
        maximumCount: Int,
        onAllReadsEnded: @escaping @Sendable () -> Void = {},
        openConnection: @escaping @Sendable () throws -> SerializedDatabase)
    {
        precondition(maximumCount >= 1, "maximumReaderCount must be at least 1")
        self.maximumCount = maximumCount
        self.onAllReadsEnded = onAllReadsEnded
        self.openConnection = openConnection
    }

    /// The number of reads that hold a connection now.
    var runningReadCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return busyCount
    }

    /// The number of open reader connections, idle or busy.
    var openConnectionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return openCount
    }

    /// Whether a barrier holds readers back.
    var isBarrierActive: Bool {
        lock.lock()
        defer { lock.unlock() }
        return barrierCount > 0
    }

    /// Hands a connection to `completion`, now or when one is free. Never
    /// blocks the caller.
    func asyncGet(_ completion: @escaping @Sendable (Result<Reader, any Error>) -> Void) {
        _ = enqueue(completion)
    }

    /// Like ``asyncGet(_:)``; returns the waiter's identifier, for
    /// ``stopWaiting(_:)``, or nil if `completion` ran already.
    private func enqueue(_ completion: @escaping @Sendable (Result<Reader, any Error>) -> Void) -> Int? {
        lock.lock()
        if isClosed {
            lock.unlock()
            completion(.failure(DatabaseError.closedPool()))
            return nil
        }
        let id = nextWaiterID
        nextWaiterID += 1
        waiters.append(Waiter(id: id, completion: completion))
        let handOuts = takeHandOuts()
        lock.unlock()
        perform(handOuts)
        return id
    }

    /// Waits for a connection without blocking a thread. A task cancelled
    /// while it waits stops waiting and throws `CancellationError`: a read
    /// whose caller went away does not hold a place in the line.
    func get() async throws -> Reader {
        let ticket = WaitTicket()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let id = enqueue { continuation.resume(with: $0) }
                if let id, ticket.register(id) { stopWaiting(id) }
            }
        } onCancel: {
            if let id = ticket.cancel() { stopWaiting(id) }
        }
    }

    /// Removes a waiter that has no connection yet, which then receives
    /// `CancellationError`. A waiter that got one keeps it.
    private func stopWaiting(_ id: Int) {
        lock.lock()
        let index = waiters.firstIndex { $0.id == id }
        let waiter = index.map { waiters.remove(at: $0) }
        lock.unlock()
        waiter?.completion(.failure(CancellationError()))
    }

    /// Waits for a connection.
    func get() throws -> Reader {
        let semaphore = DispatchSemaphore(value: 0)
        let result = LockedValue<Result<Reader, any Error>?>(nil)
        asyncGet { reader in
            result.withLock { $0 = reader }
            semaphore.signal()
        }
        semaphore.wait()
        return try result.withLock { $0! }.get()
    }

    /// Gives a connection back after a read. Connections opened before an
    /// invalidation are closed instead of reused.
    func release(_ reader: Reader) {
        lock.lock()
        busyCount -= 1
        if reader.generation == generation && !isClosed {
            idle.append(reader)
        } else {
            openCount -= 1
        }
        let handOuts = takeHandOuts()
        let allReadsEnded = busyCount == 0
        lock.broadcast()
        lock.unlock()
        perform(handOuts)
        if allReadsEnded { onAllReadsEnded() }
    }

    /// What to do outside the lock: give an idle connection to a waiter, or
    /// open a new one for it.
    private enum HandOut {
        case give(Reader, @Sendable (Result<Reader, any Error>) -> Void)
        case open(generation: Int, @Sendable (Result<Reader, any Error>) -> Void)
    }

    /// Matches waiters with connections. Called with the lock held.
    private func takeHandOuts() -> [HandOut] {
        var handOuts: [HandOut] = []
        while barrierCount == 0, !waiters.isEmpty {
            if let reader = idle.popLast() {
                busyCount += 1
                handOuts.append(.give(reader, waiters.removeFirst().completion))
            } else if openCount < maximumCount {
                openCount += 1
                busyCount += 1
                handOuts.append(.open(generation: generation, waiters.removeFirst().completion))
            } else {
                break
            }
        }
        return handOuts
    }

    private func perform(_ handOuts: [HandOut]) {
        for handOut in handOuts {
            switch handOut {
            case let .give(reader, completion):
                completion(.success(reader))
            case let .open(generation, completion):
                // Opening may take a key derivation: never on the caller's
                // thread, which may belong to the cooperative pool.
                DispatchQueue.global().async {
                    do {
                        let connection = try self.openConnection()
                        completion(.success(Reader(connection: connection, generation: generation)))
                    } catch {
                        self.lock.lock()
                        self.openCount -= 1
                        self.busyCount -= 1
                        let more = self.takeHandOuts()
                        self.lock.broadcast()
                        self.lock.unlock()
                        completion(.failure(error))
                        self.perform(more)
                    }
                }
            }
        }
    }

    /// Opens connections until the maximum count is open, on the caller's
    /// thread, and makes them idle (for persistent readers).
    ///
    /// - throws: The error of the first connection that fails to open; the
    ///   ones opened before it are kept.
    func openAll() throws {
        lock.lock()
        let missing = isClosed ? 0 : maximumCount - openCount
        openCount += missing
        let openingGeneration = generation
        lock.unlock()
        var opened: [Reader] = []
        var failure: (any Error)?
        do {
            for _ in 0..<missing {
                opened.append(Reader(connection: try openConnection(), generation: openingGeneration))
            }
        } catch {
            failure = error
        }
        lock.lock()
        if isClosed {
            // `close()` reset the count: the connections opened meanwhile
            // close when `opened` goes away.
        } else {
            openCount -= missing - opened.count
            if openingGeneration == generation {
                idle.append(contentsOf: opened)
            } else {
                openCount -= opened.count
            }
        }
        let handOuts = takeHandOuts()
        lock.broadcast()
        lock.unlock()
        perform(handOuts)
        if let failure { throw failure }
    }

    /// Opens connections up to the maximum count in the background (for
    /// persistent readers, after an invalidation). A failure is left to the
    /// reads, which open their connection on demand and report it.
    func reopenLater() {
        DispatchQueue.global().async { [weak self] in
            try? self?.openAll()
        }
    }

    /// Stops handing out connections, waits until no read runs, then runs
    /// `body` alone. Waiting reads resume afterwards.
    func barrier<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        barrierCount += 1
        while busyCount > 0 {
            lock.wait()
        }
        lock.unlock()
        defer {
            lock.lock()
            barrierCount -= 1
            let handOuts = takeHandOuts()
            lock.unlock()
            perform(handOuts)
        }
        return try body()
    }

    /// Closes the idle connections now, and the busy ones when their read ends.
    func invalidate() {
        lock.lock()
        generation += 1
        openCount -= idle.count
        idle.removeAll()
        lock.unlock()
    }

    /// Throws the error that closing an idle connection would throw (a
    /// statement still alive), and leaves every connection open.
    func checkClosable() throws {
        lock.lock()
        let connections = idle.map(\.connection)
        lock.unlock()
        for connection in connections {
            try connection.sync { try $0.checkClosable() }
        }
    }

    /// Throws ``DatabaseError/closedPool()`` if the pool of readers is
    /// closed.
    func checkNotClosed() throws {
        lock.lock()
        defer { lock.unlock() }
        if isClosed { throw DatabaseError.closedPool() }
    }

    /// Closes the pool of readers. Throws if a read is running.
    func close() throws {
        lock.lock()
        guard busyCount == 0 else {
            lock.unlock()
            throw DatabaseError(
                resultCode: .SQLITE_BUSY, message: "cannot close the database pool while a read is running")
        }
        isClosed = true
        let connections = idle.map(\.connection)
        idle.removeAll()
        openCount = 0
        let pendingWaiters = waiters
        waiters.removeAll()
        lock.unlock()
        for waiter in pendingWaiters {
            waiter.completion(.failure(DatabaseError.closedPool()))
        }
        for connection in connections {
            try connection.sync { try $0.close() }
        }
    }
}

/// Matches a task's cancellation with the waiter it registers: the
/// cancellation may come before or after the registration.
private final class WaitTicket: Sendable {
    private let state = LockedValue<(id: Int?, isCancelled: Bool)>((nil, false))

    /// Records the waiter; returns true if the task was cancelled already.
    func register(_ id: Int) -> Bool {
        state.withLock { state in
            state.id = id
            return state.isCancelled
        }
    }

    /// Records the cancellation; returns the waiter, if registered already.
    func cancel() -> Int? {
        state.withLock { state in
            state.isCancelled = true
            return state.id
        }
    }
}
