import Foundation

extension ValueObservation {
    /// Returns an observation that calls the given closures when its events
    /// happen. The closures run on unspecified threads.
    ///
    /// - parameters:
    ///     - willStart: Called when the observation starts.
    ///     - willFetch: Called before each fetch.
    ///     - willTrackRegion: Called when the observation starts tracking a
    ///       database region, and when the tracked region changes.
    ///     - databaseDidChange: Called after a transaction that impacts the
    ///       tracked region.
    ///     - didReceiveValue: Called with each value before it is notified.
    ///     - didFail: Called when the observation fails.
    ///     - didCancel: Called when the observation is cancelled.
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Reducer.Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil
    ) -> ValueObservation<ValueReducers.Trace<Reducer>> {
        // Fetches and values go through the reducer, which sees every fetch,
        // and the values with the type they have at this point of the chain.
        var observation = withReducer { base in
            ValueReducers.Trace(
                base: base,
                willFetch: willFetch ?? {},
                didReceiveValue: didReceiveValue ?? { _ in })
        }
        observation.events.willStart = chained(observation.events.willStart, willStart)
        observation.events.willTrackRegion = chained(observation.events.willTrackRegion, willTrackRegion)
        observation.events.databaseDidChange = chained(observation.events.databaseDidChange, databaseDidChange)
        observation.events.didFail = chained(observation.events.didFail, didFail)
        observation.events.didCancel = chained(observation.events.didCancel, didCancel)
        return observation
    }

    /// Returns an observation that prints a line for each of its events.
    ///
    /// ```swift
    /// let cancellable = ValueObservation
    ///     .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
    ///     .print("player count")
    ///     .start(in: dbQueue, scheduling: .async(onQueue: myQueue), onError: { _ in }, onChange: { _ in })
    /// // player count: start
    /// // player count: fetch
    /// // player count: tracked region: player(*)
    /// // player count: value: 0
    /// // player count: database did change
    /// // player count: fetch
    /// // player count: value: 1
    /// ```
    ///
    /// - parameter prefix: Put before each message, followed by a colon,
    ///   unless it is empty.
    /// - parameter stream: Where messages go; the standard output by default.
    public func print(
        _ prefix: String = "",
        to stream: sending (any TextOutputStream)? = nil
    ) -> ValueObservation<ValueReducers.Trace<Reducer>> {
        let output = ObservationLog(stream ?? StandardOutputStream())
        let prefix = prefix.isEmpty ? "" : "\(prefix): "
        return handleEvents(
            willStart: { output.write("\(prefix)start") },
            willFetch: { output.write("\(prefix)fetch") },
            willTrackRegion: { output.write("\(prefix)tracked region: \($0)") },
            databaseDidChange: { output.write("\(prefix)database did change") },
            didReceiveValue: { output.write("\(prefix)value: \($0)") },
            didFail: { output.write("\(prefix)failure: \($0)") },
            didCancel: { output.write("\(prefix)cancel") })
    }
}

/// A text stream that events of several threads write to, one message per
/// write (as GRDB: a custom stream gets no line feeds).
private final class ObservationLog: @unchecked Sendable {
    // Safe: `stream` is only used while `lock` is held, and `init` receives
    // the only reference to it (`sending`).
    private let lock = NSLock()
    private var stream: any TextOutputStream

    init(_ stream: sending any TextOutputStream) {
        self.stream = stream
    }

    func write(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        stream.write(message)
    }
}

/// The standard output, as a text stream: one line per message.
private struct StandardOutputStream: TextOutputStream {
    mutating func write(_ string: String) {
        Swift.print(string)
    }
}
