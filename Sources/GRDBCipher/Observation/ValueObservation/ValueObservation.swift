/// An observation of database values: it notifies an initial value, then a
/// fresh value after each committed transaction that modified the database
/// region the values were read from.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Player.fetchAll(db)
/// }
///
/// // As an asynchronous sequence, which ends when its task is cancelled:
/// for try await players in observation.values(in: dbPool) {
///     print("Fresh players: \(players)")
/// }
///
/// // With callbacks, until the cancellable is cancelled or deallocated:
/// let cancellable = observation.start(
///     in: dbPool,
///     scheduling: .async(onQueue: myQueue),
///     onError: { error in ... },
///     onChange: { players in ... })
/// ```
///
/// Values are notified in the order of the transactions; only committed
/// changes are notified, and several transactions may be coalesced into one
/// fresh value (see ``removeDuplicates()`` for repeated values). An error
/// thrown by the fetch ends the observation. In a ``DatabasePool``,
/// observations of a constant region fetch their values on reader
/// connections, so they do not hold the writer while they fetch.
public struct ValueObservation<Reducer: ValueReducer>: Sendable {
    var events = ValueObservationEvents()

    /// Whether the fetches of the observation may write. False by default.
    ///
    /// When true, values are fetched on the writer connection, in a
    /// savepoint, right after each transaction that impacts them: a
    /// ``DatabasePool`` then fetches them on its writer, not on a reader.
    ///
    /// ```swift
    /// var observation = ValueObservation.tracking { db in ... }
    /// observation.requiresWriteAccess = true
    /// ```
    public var requiresWriteAccess = false

    var trackingMode: ValueObservationTrackingMode

    /// Makes a fresh reducer for each start of the observation.
    var makeReducer: @Sendable () -> Reducer

    init(
        events: ValueObservationEvents = ValueObservationEvents(),
        requiresWriteAccess: Bool = false,
        trackingMode: ValueObservationTrackingMode,
        makeReducer: @escaping @Sendable () -> Reducer)
    {
        self.events = events
        self.requiresWriteAccess = requiresWriteAccess
        self.trackingMode = trackingMode
        self.makeReducer = makeReducer
    }

    /// The same observation with another reducer built on this one's.
    func withReducer<R>(_ transform: @escaping @Sendable (Reducer) -> R) -> ValueObservation<R> {
        let makeReducer = self.makeReducer
        return ValueObservation<R>(
            events: events,
            requiresWriteAccess: requiresWriteAccess,
            trackingMode: trackingMode,
            makeReducer: { transform(makeReducer()) })
    }
}

/// How an observation knows the database region it tracks.
enum ValueObservationTrackingMode: @unchecked Sendable {
    // Safe: the regions are immutable values given at creation.

    /// The given regions, whatever the fetch reads.
    case constantRegion([any DatabaseRegionConvertible])

    /// The region the first fetch read, kept for the whole observation.
    case constantRegionRecordedFromSelection

    /// The region each fetch read, recorded again at each fetch.
    case nonConstantRegionRecordedFromSelection
}

/// The callbacks of ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``
/// that are not called by the reducer.
struct ValueObservationEvents: Sendable {
    var willStart: (@Sendable () -> Void)?
    var willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?
    var databaseDidChange: (@Sendable () -> Void)?
    var didFail: (@Sendable (any Error) -> Void)?
    var didCancel: (@Sendable () -> Void)?
}

/// Calls `first` then `second`, whichever is given.
func chained<each Argument>(
    _ first: (@Sendable (repeat each Argument) -> Void)?,
    _ second: (@Sendable (repeat each Argument) -> Void)?
) -> (@Sendable (repeat each Argument) -> Void)? {
    guard let first else { return second }
    guard let second else { return first }
    return { (argument: repeat each Argument) in
        first(repeat each argument)
        second(repeat each argument)
    }
}

extension ValueObservation {
    /// Creates an observation that notifies the value `fetch` returns, and
    /// fetches it again after each transaction that modified what the last
    /// fetch read.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try Player.fetchAll(db)
    /// }
    /// let maximumScore = ValueObservation.tracking { db in
    ///     try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player")
    /// }
    /// ```
    ///
    /// The tracked region is recorded at each fetch, so `fetch` may read
    /// different tables or rows from one fetch to the next.
    ///
    /// - parameter fetch: The closure that fetches the observed value. An
    ///   error it throws ends the observation.
    @preconcurrency public static func tracking<Value>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> Self where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(
            trackingMode: .nonConstantRegionRecordedFromSelection,
            makeReducer: { ValueReducers.Fetch(body: fetch) })
    }

    /// Creates an observation that notifies the value `fetch` returns, and
    /// fetches it again after each transaction that modified what the first
    /// fetch read.
    ///
    /// **Precondition**: `fetch` reads the same database region (tables,
    /// columns, rows) at each fetch; changes outside the region the first
    /// fetch read are not notified. Use ``tracking(_:)`` otherwise.
    ///
    /// ```swift
    /// let observation = ValueObservation.trackingConstantRegion { db in
    ///     try Player.fetchAll(db)
    /// }
    /// ```
    ///
    /// - parameter fetch: The closure that fetches the observed value. An
    ///   error it throws ends the observation.
    @preconcurrency public static func trackingConstantRegion<Value>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> Self where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(
            trackingMode: .constantRegionRecordedFromSelection,
            makeReducer: { ValueReducers.Fetch(body: fetch) })
    }

    /// Creates an observation that notifies the value `fetch` returns, and
    /// fetches it again after each transaction that modified one of the
    /// given regions, whatever `fetch` reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(
    ///     region: Table("player"), Table("team"),
    ///     fetch: { db in try Row.fetchAll(db, sql: "SELECT * FROM player") })
    /// ```
    ///
    /// - parameter region: A region to observe.
    /// - parameter otherRegions: More regions to observe.
    /// - parameter fetch: The closure that fetches the observed value. An
    ///   error it throws ends the observation.
    @preconcurrency public static func tracking<Value>(
        region: any DatabaseRegionConvertible,
        _ otherRegions: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> Self where Reducer == ValueReducers.Fetch<Value> {
        tracking(regions: [region] + otherRegions, fetch: fetch)
    }

    /// Creates an observation that notifies the value `fetch` returns, and
    /// fetches it again after each transaction that modified one of the
    /// given regions, whatever `fetch` reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(
    ///     regions: [DatabaseRegion.fullDatabase],
    ///     fetch: { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") })
    /// ```
    ///
    /// - parameter regions: The regions to observe.
    /// - parameter fetch: The closure that fetches the observed value. An
    ///   error it throws ends the observation.
    @preconcurrency public static func tracking<Value>(
        regions: [any DatabaseRegionConvertible],
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> Self where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(
            trackingMode: .constantRegion(regions),
            makeReducer: { ValueReducers.Fetch(body: fetch) })
    }
}
