/// An asynchronous sequence of the values of a ``ValueObservation``, made by
/// ``ValueObservation/values(in:scheduling:bufferingPolicy:)``.
///
/// ```swift
/// for try await players in observation.values(in: dbPool) {
///     print("Fresh players: \(players)")
/// }
/// ```
///
/// Each iterator starts its own observation, which stops when the iterator
/// is deallocated, or when the task that iterates is cancelled. The
/// sequence throws the error that ends the observation.
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
    /// How values wait for the consumer: see `AsyncThrowingStream`.
    public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy
    /// The iterator type.
    public typealias AsyncIterator = Iterator

    let bufferingPolicy: BufferingPolicy
    let start: @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Element) -> Void
    ) -> AnyDatabaseCancellable

    init(
        bufferingPolicy: BufferingPolicy,
        start: @escaping @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Element) -> Void
        ) -> AnyDatabaseCancellable)
    {
        self.bufferingPolicy = bufferingPolicy
        self.start = start
    }

    /// Starts an observation and returns the iterator of its values.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Element.self, throwing: (any Error).self, bufferingPolicy: bufferingPolicy)
        let cancellable = start(
            { error in continuation.finish(throwing: error) },
            { value in continuation.yield(value) })
        // The stream ends when its consumer's task is cancelled, or when the
        // iterator goes away: the observation stops then. Only the iterator
        // keeps the cancellable, so that deallocating it cancels too.
        continuation.onTermination = { [weak cancellable] _ in
            cancellable?.cancel()
        }
        return Iterator(base: stream.makeAsyncIterator(), cancellable: cancellable)
    }

    /// Iterates the values of one observation.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let cancellable: AnyDatabaseCancellable

        /// The next value, or nil once the observation was cancelled.
        ///
        /// - throws: The error that ended the observation.
        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}
