import Dispatch

/// Runs `body` on a global dispatch queue and returns its result: for async
/// twins of blocking work (waiting for readers, copying a file), which must
/// not hold a thread of the cooperative pool. Throws `CancellationError`
/// without running `body` if the task is already cancelled.
func runOffCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try Task.checkCancellation()
    return try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}
