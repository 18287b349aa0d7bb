/// Tells when a transaction that modified a part of the database has
/// committed.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Table("player"))
/// let cancellable = observation.start(in: dbQueue) { error in
///     // the region could not be computed
/// } onChange: { db in
///     print("players were modified")
/// }
/// ```
///
/// Unlike `ValueObservation`, it fetches nothing: `onChange` runs on the
/// writer's connection, right after the commit, before any other write.
public struct DatabaseRegionObservation: Sendable {
    private let regions: [any DatabaseRegionConvertible]

    /// An observation of the transactions that modify one of the regions.
    public init(tracking regions: any DatabaseRegionConvertible...) {
        self.init(tracking: regions)
    }

    /// An observation of the transactions that modify one of the regions.
    public init(tracking regions: [any DatabaseRegionConvertible]) {
        self.regions = regions
    }

    /// The observed region, as the connection sees it (views and SQLite's
    /// internal tables removed).
    func observedRegion(_ db: Database) throws -> DatabaseRegion {
        var region = DatabaseRegion()
        for convertible in regions {
            region.formUnion(try convertible.databaseRegion(db))
        }
        return try region.observableRegion(db)
    }

    /// Starts the observation: `onChange` is called on the writer's
    /// connection after each transaction that modified the region, until
    /// the returned cancellable is cancelled or deallocated.
    ///
    /// The observation is registered before this method returns: the
    /// transactions that follow are observed. `onError` is called, instead,
    /// if the region cannot be computed (a request that does not compile) or
    /// the writer is closed.
    ///
    /// - parameter writer: The queue or pool whose writes are observed.
    /// - parameter onError: Called once if the observation fails.
    /// - parameter onChange: Called with the writer's connection after each
    ///   impactful commit; the connection must not escape the closure.
    /// - returns: A cancellable that stops the observation.
    public func start(
        in writer: any DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void)
        -> AnyDatabaseCancellable
    {
        let state = LockedValue<RegionObservationState>(.pending)
        do {
            try writer.unsafeReentrantWrite { db in
                try db.checkUsable()
                let region = try observedRegion(db)
                let observer = DatabaseRegionObserver(region: region) { db in
                    // Nothing after cancellation, even from a commit that
                    // was under way.
                    guard state.withLock({ $0.isStarted }) else { return }
                    onChange(db)
                }
                state.withLock { state in
                    if case .pending = state { state = .started(observer) }
                }
                // Weak: cancelling releases the observer, which unregisters it.
                db.add(transactionObserver: observer, extent: .observerLifetime)
            }
        } catch {
            onError(error)
        }
        return AnyDatabaseCancellable {
            // Releases the observer, which the connection holds weakly:
            // it is told nothing more, and the connection forgets it at
            // the end of its next transaction. Cancelling never waits for
            // the writer.
            state.withLock { $0 = .cancelled }
        }
    }

    /// The impactful transactions as an asynchronous sequence: one element
    /// for each transaction that modified the region, until the task that
    /// iterates is cancelled, or the observation fails (it throws then).
    ///
    /// ```swift
    /// for try await _ in DatabaseRegionObservation(tracking: Table("player")).values(in: dbPool) {
    ///     print("players were modified")
    /// }
    /// ```
    ///
    /// GRDB's Combine publisher gives the connection; a connection cannot
    /// cross tasks, so the elements carry nothing.
    ///
    /// - parameter writer: The queue or pool whose writes are observed.
    /// - parameter bufferingPolicy: What to keep while the consumer is slow;
    ///   by default every element.
    public func values(
        in writer: any DatabaseWriter,
        bufferingPolicy: AsyncDatabaseRegionObservation.BufferingPolicy = .unbounded)
        -> AsyncDatabaseRegionObservation
    {
        AsyncDatabaseRegionObservation(observation: self, writer: writer, bufferingPolicy: bufferingPolicy)
    }
}

/// Where a started region observation is.
private enum RegionObservationState {
    case pending
    case started(DatabaseRegionObserver)
    case cancelled

    var isStarted: Bool {
        if case .started = self { return true }
        return false
    }
}

/// The transaction observer of a ``DatabaseRegionObservation``: it notes
/// whether a transaction modified the region, and calls back after the
/// commit.
final class DatabaseRegionObserver: TransactionObserver {
    private let region: DatabaseRegion
    private let onChange: @Sendable (Database) -> Void
    private var isModified = false

    init(region: DatabaseRegion, onChange: @escaping @Sendable (Database) -> Void) {
        self.region = region
        self.onChange = onChange
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        region.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange() {
        isModified = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if region.isModified(by: event) {
            isModified = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidCommit(_ db: Database) {
        guard isModified else { return }
        isModified = false
        onChange(db)
    }

    func databaseDidRollback(_ db: Database) {
        isModified = false
    }
}
