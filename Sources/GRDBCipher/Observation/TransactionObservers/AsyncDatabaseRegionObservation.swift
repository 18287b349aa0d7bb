/// The asynchronous sequence of ``DatabaseRegionObservation/values(in:bufferingPolicy:)``:
/// one element for each committed transaction that modified the region.
///
/// Each iteration starts its own observation, when it asks for its first
/// element, and stops it when the iterating task is cancelled or the
/// iterator goes away.
public struct AsyncDatabaseRegionObservation: AsyncSequence, Sendable {
    /// One element per impactful transaction; it carries nothing.
    public typealias Element = Void
    /// What to keep while the consumer is slow.
    public typealias BufferingPolicy = AsyncThrowingStream<Void, any Error>.Continuation.BufferingPolicy

    let observation: DatabaseRegionObservation
    let writer: any DatabaseWriter
    let bufferingPolicy: BufferingPolicy

    /// Starts an observation and returns its iterator.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Void, any Error>.makeStream(bufferingPolicy: bufferingPolicy)
        let cancellable = observation.start(
            in: writer,
            onError: { error in continuation.finish(throwing: error) },
            onChange: { _ in continuation.yield() })
        continuation.onTermination = { _ in cancellable.cancel() }
        return Iterator(base: stream.makeAsyncIterator(), cancellable: cancellable)
    }

    /// Iterates impactful transactions; stops the observation when it goes
    /// away.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Void, any Error>.AsyncIterator
        let cancellable: AnyDatabaseCancellable

        /// The next impactful transaction, or nil once the task is cancelled.
        ///
        /// - throws: The error of the observation.
        public mutating func next() async throws -> Void? {
            try await base.next()
        }
    }
}
