import CSQLCipher
import Dispatch

/// Tells a running backup or export whether to stop: the async twins make
/// one that says stop once their task is cancelled. A backup asks it between
/// steps. `sqlcipher_export` copies the whole database in one SQL call, so an
/// export asks it from SQLite's progress handler while the copy runs, and
/// SQLite then interrupts the copy.
final class CopyCancellation: Sendable {
    /// Whether to stop. Called from the copying connection, every few
    /// thousand SQLite instructions: it must be quick.
    let isCancelled: @Sendable () -> Bool

    init(isCancelled: @escaping @Sendable () -> Bool) {
        self.isCancelled = isCancelled
    }

    /// Runs `body` off the cooperative thread pool with a cancellation that
    /// says stop once the current task is cancelled.
    static func runCancellable(_ body: @escaping @Sendable (CopyCancellation) throws -> Void) async throws {
        try Task.checkCancellation()
        let isCancelled = LockedValue(false)
        let cancellation = CopyCancellation { isCancelled.withLock { $0 } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try body(cancellation) })
                }
            }
        } onCancel: {
            isCancelled.withLock { $0 = true }
        }
    }

    /// Runs `body` with SQLite asking `cancellation`, if any, while it runs on
    /// the connection `handle`: a statement then fails with `SQLITE_INTERRUPT`.
    static func whileRunning<T>(
        on handle: OpaquePointer, asking cancellation: CopyCancellation?, _ body: () throws -> T) throws -> T
    {
        guard let cancellation else { return try body() }
        // The context is unretained: `cancellation` outlives the handler,
        // which is removed before this method returns.
        sqlite3_progress_handler(handle, 1000, { context in
            guard let context else { return 0 }
            return Unmanaged<CopyCancellation>.fromOpaque(context).takeUnretainedValue().isCancelled() ? 1 : 0
        }, Unmanaged.passUnretained(cancellation).toOpaque())
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        return try withExtendedLifetime(cancellation) { try body() }
    }
}
