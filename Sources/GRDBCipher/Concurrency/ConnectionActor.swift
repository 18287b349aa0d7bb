import Dispatch

/// Runs the closures of async accesses on a connection's serial dispatch
/// queue, as part of the task that awaits them.
///
/// The actor's executor is the queue: a job of the actor is a block on the
/// queue, so it runs in turn with the synchronous accesses (`queue.sync`)
/// and never on a thread of the cooperative pool. Because the closure runs
/// inside the awaiting task, and not in a detached block, it sees the task's
/// task-local values and its cancellation, and it needs not escape.
actor ConnectionActor {
    private let executor: QueueExecutor

    init(queue: DispatchQueue) {
        executor = QueueExecutor(queue: queue)
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Runs `body` on the queue and returns its result.
    func run<T: Sendable>(_ body: @Sendable () throws -> T) throws -> T {
        try body()
    }
}

/// A serial executor whose jobs are blocks of a serial dispatch queue.
private final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    // Safe: the queue is immutable and thread-safe.
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
