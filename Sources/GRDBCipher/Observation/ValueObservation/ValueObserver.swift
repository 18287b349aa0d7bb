import Dispatch
import Foundation

/// A running ``ValueObservation``: a transaction observer of the writer
/// connection that fetches fresh values after the transactions that impact
/// the tracked region, reduces them in order, and notifies them through the
/// scheduler.
///
/// It fetches as GRDB does:
///
/// - On a ``DatabaseQueue`` (or for an observation that
///   ``ValueObservation/requiresWriteAccess``), everything happens on the
///   writer: the initial fetch and the registration in one access, then a
///   fetch right after each impacting commit.
/// - On a ``DatabasePool``, the initial value is fetched on a reader, without
///   waiting for a running write. The observer then registers on the writer,
///   and fetches there once more if the writer changed the database since
///   the initial fetch began (see ``ChangeGeneration``). After an impacting
///   commit, an observation whose region is constant fetches on a reader
///   (at most one such fetch runs, and commits made meanwhile are coalesced
///   into one more), and an observation whose region may change with each
///   fetch (``ValueObservation/tracking(_:)``) fetches on the writer: a
///   reader could miss a commit to a table its fetch is about to read.
///
/// It observes nothing outside of the tracked region: deletions in other
/// tables keep SQLite's truncate optimization.
final class ValueObserver<Reducer: ValueReducer>: TransactionObserver, @unchecked Sendable {
    // Safe: the properties of the "writer" section are only touched on the
    // writer connection's queue; `reducer` only on `reduceQueue`; the other
    // mutable state is behind `lock`.

    // MARK: Configuration

    private let writer: any DatabaseWriter
    /// The pool whose readers fetch, nil when everything runs on the writer.
    private let pool: DatabasePool?
    private let requiresWriteAccess: Bool
    private let trackingMode: ValueObservationTrackingMode
    private let fetcher: Reducer.Fetcher
    private let scheduler: any ValueObservationScheduler
    private let events: ValueObservationEvents
    private let onChange: @Sendable (Reducer.Value) -> Void

    // MARK: Writer state

    /// The tracked region, nil until the observer is registered.
    private var region: DatabaseRegion?
    /// Whether the current transaction modified the tracked region.
    private var isModified = false
    /// Set while the writer fetches, so that the fetch's own savepoint
    /// (``ValueObservation/requiresWriteAccess``) does not trigger the
    /// observation again.
    private var isFetchingOnWriter = false

    // MARK: Shared state

    private struct State {
        /// The observation observes the database and fetches.
        var isActive = true
        /// Values and the error may still be notified: until the error is
        /// notified, or the observation cancelled. Values scheduled before a
        /// failure are notified before it, as in GRDB.
        var isNotifying = true
        /// A fetch on a reader runs.
        var isFetching = false
        /// A commit impacted the region while a fetch ran.
        var needsFetch = false
    }
    private let lock = NSLock()
    private var state = State()

    // MARK: Reduce state

    private let reduceQueue = DispatchQueue(label: "GRDB.ValueObservation.reducer")
    private var reducer: Reducer
    /// Set on `reduceQueue` when the failure is scheduled: nothing reduced
    /// after it is notified.
    private var hasScheduledFailure = false

    init(
        observation: ValueObservation<Reducer>,
        writer: any DatabaseWriter,
        scheduler: any ValueObservationScheduler,
        onChange: @escaping @Sendable (Reducer.Value) -> Void)
    {
        self.writer = writer
        self.pool = observation.requiresWriteAccess ? nil : writer.underlyingPool
        self.requiresWriteAccess = observation.requiresWriteAccess
        self.trackingMode = observation.trackingMode
        self.scheduler = scheduler
        self.events = observation.events
        self.onChange = onChange
        reducer = observation.makeReducer()
        fetcher = reducer._makeFetcher()
    }

    private var isActive: Bool {
        lock.withLock { state.isActive }
    }

    private var isNotifying: Bool {
        lock.withLock { state.isNotifying }
    }

    // MARK: - Starting

    /// Starts observing. With an immediate scheduler, the initial value is
    /// fetched and notified before this method returns.
    func start() -> AnyDatabaseCancellable {
        let cancellable = AnyDatabaseCancellable { [self] in cancel() }
        if let pool {
            startFetchingOnReader(pool)
            return cancellable
        }
        if scheduler.immediateInitialValue() {
            do {
                // The initial fetch and the registration happen in one
                // access of the writer: no commit can come between them.
                let value = try writer.unsafeReentrantWrite { db in
                    try db.checkUsable()
                    let fetched = try setUpWithInitialFetchOnWriter(db)
                    return try reduceQueue.sync { try reducer._value(fetched.fetched) }
                }
                guard let value else {
                    fatalError("ValueObservation: the reducer gave no initial value")
                }
                onChange(value)
            } catch {
                // As the initial value would have been: before `start` returns.
                fail(error, now: true)
            }
            return cancellable
        }
        writer.asyncWriteWithoutTransaction { [self] db in
            guard isActive else { return }
            do {
                try db.checkUsable()
                let fetched = try setUpWithInitialFetchOnWriter(db)
                reduceAndNotify(fetched)
            } catch {
                fail(error)
            }
        }
        return cancellable
    }

    /// Fetches the initial value and the region on the writer, and registers
    /// the observer. Runs on the writer queue.
    private func setUpWithInitialFetchOnWriter(_ db: Database) throws -> Fetched {
        let (fetched, region) = try fetchOnWriter(db, recordingRegion: trackingMode.recordsRegion)
        try register(db, region: region ?? explicitRegion(db))
        return fetched
    }

    /// Fetches the initial value on a reader of the pool, then registers on
    /// the writer.
    private func startFetchingOnReader(_ pool: DatabasePool) {
        // Read before the reader's transaction begins: the reader sees at
        // least the changes this count covers.
        let generation = pool.writerChangeGeneration
        if scheduler.immediateInitialValue() {
            do {
                let (fetched, region) = try pool.read { db in try initialFetch(db) }
                let value = try reduceQueue.sync { try reducer._value(fetched.fetched) }
                guard let value else {
                    fatalError("ValueObservation: the reducer gave no initial value")
                }
                register(on: pool, region: region, ifChangedSince: generation)
                onChange(value)
            } catch {
                fail(error, now: true)
            }
            return
        }
        pool.asyncRead { [self] result in
            guard isActive else { return }
            do {
                let (fetched, region) = try initialFetch(result.get())
                // The registration is queued on the writer before the value
                // goes out, as GRDB does: a write made in answer to the
                // initial value then runs after it, and is observed. And the
                // initial value is queued for reduction before the
                // registration can fetch a newer one on the writer: values
                // go out in the order of their fetches. The reduce queue is
                // held meanwhile (for the two calls, which do not wait).
                reduceQueue.suspend()
                reduceAndNotify(fetched)
                register(on: pool, region: region, ifChangedSince: generation)
                reduceQueue.resume()
            } catch {
                fail(error)
            }
        }
    }

    /// The initial fetch on a reader, and the region to track.
    private func initialFetch(_ db: Database) throws -> (Fetched, DatabaseRegion) {
        let (fetched, region) = try fetch(db, recordingRegion: trackingMode.recordsRegion)
        return (fetched, try region ?? explicitRegion(db))
    }

    /// Registers the observer on the writer, after an initial fetch on a
    /// reader. If the writer changed the database since that fetch began,
    /// the writer fetches again, so that no change is missed.
    private func register(on pool: DatabasePool, region initialRegion: DatabaseRegion, ifChangedSince generation: UInt64) {
        pool.asyncWriteWithoutTransaction { [self] db in
            guard isActive else { return }
            do {
                try db.checkUsable()
                guard pool.writerChangeGeneration != generation else {
                    try register(db, region: initialRegion)
                    return
                }
                events.databaseDidChange?()
                let (fetched, recordedRegion) = try fetchOnWriter(db, recordingRegion: trackingMode.recordsRegion)
                try register(db, region: recordedRegion ?? initialRegion)
                reduceAndNotify(fetched)
            } catch {
                fail(error)
            }
        }
    }

    /// Installs the region and adds the observer to the writer connection.
    private func register(_ db: Database, region: DatabaseRegion) throws {
        install(region: region)
        db.add(transactionObserver: self, extent: .observerLifetime)
    }

    /// The union of the regions given to ``ValueObservation/tracking(regions:fetch:)``.
    private func explicitRegion(_ db: Database) throws -> DatabaseRegion {
        guard case .constantRegion(let regions) = trackingMode else { return DatabaseRegion() }
        var region = DatabaseRegion()
        for convertible in regions {
            region.formUnion(try convertible.databaseRegion(db))
        }
        return try region.observableRegion(db)
    }

    /// Sets the tracked region, on the writer queue.
    private func install(region newRegion: DatabaseRegion) {
        if let willTrackRegion = events.willTrackRegion, newRegion != region {
            willTrackRegion(newRegion)
        }
        region = newRegion
    }

    // MARK: - Fetching

    /// A fetched value that crosses threads on its way to the reducer.
    struct Fetched: @unchecked Sendable {
        // Safe: the value is handed from the fetch to the reducer, and used
        // by nothing else.
        var fetched: Reducer.Fetcher.Value
    }

    /// Fetches on the writer connection, outside of a transaction.
    private func fetchOnWriter(_ db: Database, recordingRegion: Bool) throws -> (Fetched, DatabaseRegion?) {
        isFetchingOnWriter = true
        defer { isFetchingOnWriter = false }
        if requiresWriteAccess {
            var result: (Fetched, DatabaseRegion?)?
            try db.inSavepoint {
                result = try fetch(db, recordingRegion: recordingRegion)
                return .commit
            }
            return result!
        }
        return try db.readOnlyTransaction { db in
            try fetch(db, recordingRegion: recordingRegion)
        }
    }

    private func fetch(_ db: Database, recordingRegion: Bool) throws -> (Fetched, DatabaseRegion?) {
        if recordingRegion {
            let (value, region) = try db.recordingSelectedRegion { try fetcher.fetch(db) }
            return (Fetched(fetched: value), try region.observableRegion(db))
        }
        return (Fetched(fetched: try fetcher.fetch(db)), nil)
    }

    /// Fetches on a reader, after an impacting commit. Called with
    /// `state.isFetching` set.
    private func startFetchOnReader(_ pool: DatabasePool) {
        pool.asyncRead { [self] result in
            guard isActive else { return }
            do {
                let (fetched, _) = try fetch(result.get(), recordingRegion: false)
                // Reads are serialized (one at a time): reducing on this
                // thread keeps the order and saves a thread hop per value.
                reduceAndNotify(fetched, waiting: true)
            } catch {
                fail(error)
                return
            }
            let fetchesAgain = lock.withLock {
                guard state.isActive, state.needsFetch else {
                    state.isFetching = false
                    return false
                }
                state.needsFetch = false
                return true
            }
            if fetchesAgain { startFetchOnReader(pool) }
        }
    }

    // MARK: - Reducing and notifying

    /// Reduces a fetched value and schedules its notification, after the
    /// values fetched before it. With `waiting`, the reduction runs before
    /// this method returns (on the caller's thread when the reduce queue is
    /// idle).
    private func reduceAndNotify(_ fetched: Fetched, waiting: Bool = false) {
        if waiting {
            reduceQueue.sync { reduce(fetched) }
        } else {
            reduceQueue.async { [self] in reduce(fetched) }
        }
    }

    /// Reduces a fetched value and schedules its notification. Runs on
    /// `reduceQueue`.
    private func reduce(_ fetched: Fetched) {
        // A value fetched before a failure is still notified, before it.
        guard !hasScheduledFailure, isNotifying else { return }
        let value: Reducer.Value?
        do {
            value = try reducer._value(fetched.fetched)
        } catch {
            fail(error, onReduceQueue: true)
            return
        }
        guard let value else { return }
        scheduler.schedule { [self] in
            if isNotifying { onChange(value) }
        }
    }

    /// Ends the observation with `error`, notified once (or `now`), after
    /// the values fetched before it: the failure takes its turn on the
    /// reduce queue, then on the scheduler. Called on the reduce queue when
    /// `onReduceQueue` is true.
    private func fail(_ error: any Error, now: Bool = false, onReduceQueue: Bool = false) {
        let wasActive = lock.withLock {
            defer { state.isActive = false }
            return state.isActive
        }
        guard wasActive else { return }
        stopObservingDatabase()
        let didFail = events.didFail
        if now {
            lock.withLock { state.isNotifying = false }
            didFail?(error)
            return
        }
        let scheduleFailure: @Sendable () -> Void = { [self] in
            hasScheduledFailure = true
            scheduler.schedule { [self] in
                let notifies = lock.withLock {
                    defer { state.isNotifying = false }
                    return state.isNotifying
                }
                if notifies { didFail?(error) }
            }
        }
        if onReduceQueue {
            scheduleFailure()
        } else {
            reduceQueue.async(execute: scheduleFailure)
        }
    }

    /// Ends the observation: no value, and no error, is notified after this
    /// returns.
    func cancel() {
        let wasActive = lock.withLock {
            defer {
                state.isActive = false
                state.isNotifying = false
            }
            return state.isActive
        }
        guard wasActive else { return }
        events.didCancel?()
        stopObservingDatabase()
    }

    private func stopObservingDatabase() {
        let remove: @Sendable (Database) -> Void = { [self] db in db.remove(transactionObserver: self) }
        // `close()` right after the end of an observation waits for this.
        writer.asyncWriteWithoutTransaction(remove)
    }

    // MARK: - TransactionObserver

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let region else { return false }
        return region.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if isFetchingOnWriter { return }
        if let region, region.isModified(by: event) {
            isModified = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        // A change the connection could not see row by row
        // (`Database.notifyChanges(in:)`), in the region.
        if isFetchingOnWriter { return }
        isModified = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        guard isModified else { return }
        isModified = false
        guard isActive else { return }
        events.databaseDidChange?()
        if let pool, !trackingMode.recordsEveryRegion {
            let startsFetch = lock.withLock {
                if state.isFetching {
                    state.needsFetch = true
                    return false
                }
                state.isFetching = true
                return true
            }
            if startsFetch { startFetchOnReader(pool) }
            return
        }
        do {
            let (fetched, recordedRegion) = try fetchOnWriter(db, recordingRegion: trackingMode.recordsEveryRegion)
            if let recordedRegion { install(region: recordedRegion) }
            reduceAndNotify(fetched)
        } catch {
            fail(error)
        }
    }

    func databaseDidRollback(_ db: Database) {
        isModified = false
    }
}

extension ValueObservationTrackingMode {
    /// Whether the initial fetch records the region to track.
    var recordsRegion: Bool {
        if case .constantRegion = self { return false }
        return true
    }

    /// Whether every fetch records the region to track: it may change.
    var recordsEveryRegion: Bool {
        if case .nonConstantRegionRecordedFromSelection = self { return true }
        return false
    }
}
