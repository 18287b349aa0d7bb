import CSQLCipher

/// Tells a running backup or export whether to stop: the async twins make
/// one that says stop once their task is cancelled. A backup asks it between
/// steps. `sqlcipher_export` copies the whole database in one SQL call, so an
/// export asks it from SQLite's progress handler while the copy runs, and
/// SQLite then interrupts the copy.
final class CopyCancellation: Sendable {
    /// Whether to stop. Called from the copying connection about every
    /// 1,000 SQLite virtual-machine instructions: it must be quick.
    let isCancelled: @Sendable () -> Bool

    /// Whether SQLite's progress handler stopped a statement because of this
    /// cancellation: only then is a failed copy a cancelled one.
    private let interrupted = LockedValue(false)
    var didInterrupt: Bool { interrupted.withLock { $0 } }

    init(isCancelled: @escaping @Sendable () -> Bool) {
        self.isCancelled = isCancelled
    }

    /// Answers SQLite's progress handler: true to interrupt.
    private func shouldInterrupt() -> Bool {
        guard isCancelled() else { return false }
        interrupted.withLock { $0 = true }
        return true
    }

    /// Runs `body` off the cooperative thread pool with a cancellation that
    /// says stop once the current task is cancelled.
    static func runCancellable(_ body: @escaping @Sendable (CopyCancellation) throws -> Void) async throws {
        let isCancelled = LockedValue(false)
        let cancellation = CopyCancellation { isCancelled.withLock { $0 } }
        try await withTaskCancellationHandler {
            try await runOffCooperativePool { try body(cancellation) }
        } onCancel: {
            isCancelled.withLock { $0 = true }
        }
    }

    /// Runs `body` with SQLite asking `cancellation`, if any, while it runs on
    /// the connection `handle`: when it says stop, the running statement
    /// fails ("interrupted") and ``didInterrupt`` becomes true. SQLite has one
    /// progress handler per connection: one installed with the C API is
    /// replaced, and none is left afterwards.
    static func whileRunning<T>(
        on handle: OpaquePointer, asking cancellation: CopyCancellation?, _ body: () throws -> T) throws -> T
    {
        guard let cancellation else { return try body() }
        // The context is unretained: `cancellation` outlives the handler,
        // which is removed before this method returns.
        sqlite3_progress_handler(handle, 1000, { context in
            guard let context else { return 0 }
            return Unmanaged<CopyCancellation>.fromOpaque(context).takeUnretainedValue().shouldInterrupt() ? 1 : 0
        }, Unmanaged.passUnretained(cancellation).toOpaque())
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        return try withExtendedLifetime(cancellation) { try body() }
    }
}
