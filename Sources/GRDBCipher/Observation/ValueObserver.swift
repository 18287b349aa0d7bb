import Dispatch
import Foundation

/// A running ``ValueObservation``: a transaction observer of the writer
/// connection that fetches fresh values after the transactions that impact
/// the tracked region, reduces them in order, and notifies them through the
/// scheduler.
///
/// It fetches in one of two ways:
///
/// - on the writer (a ``DatabaseQueue``, or an observation that
///   ``ValueObservation/requiresWriteAccess``): right after each impacting
///   commit, so every such commit gives a fresh value;
/// - on readers (a ``DatabasePool``): an impacting commit starts a read on a
///   reader connection, which sees that commit or a later state. At most one
///   such read runs at a time; commits that happen meanwhile are coalesced
///   into one more read when it ends. The writer never waits for a reader.
///
/// When the tracked region is recorded by the fetch (``ValueObservation/tracking(_:)``),
/// a read on a reader may record a new region while the writer commits: the
/// writer then logs the tables that its commits modify until the new region
/// is installed on the writer queue, and one more read runs if one of them
/// is in the new region. No commit is missed.
final class ValueObserver<Reducer: ValueReducer>: TransactionObserver, @unchecked Sendable {
    // Safe: the properties of the "writer" section are only touched on the
    // writer connection's queue; `reducer` only on `reduceQueue`; the other
    // mutable state is behind `lock`.

    // MARK: Configuration

    private let writer: any DatabaseWriter
    private let fetchesOnReaders: Bool
    private let requiresWriteAccess: Bool
    private let trackingMode: ValueObservationTrackingMode
    private let fetcher: Reducer.Fetcher
    private let scheduler: any ValueObservationScheduler
    private let events: ValueObservationEvents
    private let onChange: @Sendable (Reducer.Value) -> Void

    // MARK: Writer state

    /// The tracked region, or nil until the first fetch recorded it.
    private var region: DatabaseRegion?
    /// Whether the current transaction modified the tracked region.
    private var isModified = false
    /// Set while a fetch on a reader records a region that is not
    /// installed yet: commits then log the tables they modify.
    private var logsModifiedTables = false
    private var modifiedTables: Set<String> = []
    /// Set when the tables of a logged change are not known.
    private var modifiesUnknownTables = false
    /// What the transaction in progress modified, logged as above: it joins
    /// `modifiedTables` when the transaction commits, and is forgotten when
    /// it rolls back (a rolled-back change must not fetch again).
    private var uncommittedModifiedTables: Set<String> = []
    private var uncommittedModifiesUnknownTables = false
    /// Set while the writer fetches, so that the fetch's own transaction
    /// does not trigger the observation again.
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
        fetchesOnReaders: Bool,
        scheduler: any ValueObservationScheduler,
        onChange: @escaping @Sendable (Reducer.Value) -> Void)
    {
        self.writer = writer
        self.fetchesOnReaders = fetchesOnReaders
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
        if scheduler.immediateInitialValue() {
            do {
                // The initial fetch and the registration happen in one
                // access of the writer: no commit can come between them.
                let value = try writer.unsafeReentrantWrite { db in
                    try db.checkUsable()
                    let value = try setUpWithInitialFetchOnWriter(db)
                    return try reduceQueue.sync { try reducer._value(value.fetched) }
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
                if fetchesOnReaders {
                    try setUpForReaders(db)
                } else {
                    let fetched = try setUpWithInitialFetchOnWriter(db)
                    reduceAndNotify(fetched)
                }
            } catch {
                fail(error)
            }
        }
        return cancellable
    }

    /// Computes or records the region, fetches the initial value on the
    /// writer, and registers the observer. Runs on the writer queue.
    private func setUpWithInitialFetchOnWriter(_ db: Database) throws -> Fetched {
        let explicitRegion = try explicitRegion(db)
        let (fetched, recordedRegion) = try fetchOnWriter(db, recordingRegion: explicitRegion == nil)
        install(region: explicitRegion ?? recordedRegion!)
        db.add(transactionObserver: self, extent: .observerLifetime)
        return fetched
    }

    /// Registers the observer and starts the initial fetch on a reader, which
    /// sees the state as of the registration or a later one. Runs on the
    /// writer queue.
    private func setUpForReaders(_ db: Database) throws {
        if let explicitRegion = try explicitRegion(db) {
            install(region: explicitRegion)
        }
        db.add(transactionObserver: self, extent: .observerLifetime)
        lock.withLock { state.isFetching = true }
        startFetchOnReader(recordingRegion: nextFetchRecordsRegion)
    }

    /// The union of the regions given to ``ValueObservation/tracking(regions:fetch:)``.
    private func explicitRegion(_ db: Database) throws -> DatabaseRegion? {
        guard case .constantRegion(let regions) = trackingMode else { return nil }
        var region = DatabaseRegion()
        for convertible in regions {
            region.formUnion(try convertible.databaseRegion(db))
        }
        return try region.observableRegion(db)
    }

    /// Whether the next fetch records the region it reads.
    private var nextFetchRecordsRegion: Bool {
        switch trackingMode {
        case .constantRegion: false
        case .constantRegionRecordedFromSelection: region == nil
        case .nonConstantRegionRecordedFromSelection: true
        }
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

    /// Fetches on a reader. Called with `state.isFetching` set; from the
    /// writer queue when the fetch records a region.
    private func startFetchOnReader(recordingRegion recordsRegion: Bool) {
        if recordsRegion {
            logsModifiedTables = true
            modifiedTables = []
            modifiesUnknownTables = false
            uncommittedModifiedTables = []
            uncommittedModifiesUnknownTables = false
        }
        writer.asyncRead { [self] result in
            guard isActive else { return }
            do {
                let (fetched, recordedRegion) = try fetch(result.get(), recordingRegion: recordsRegion)
                // Reads are serialized (one at a time): reducing on this
                // thread keeps the order and saves a thread hop per value.
                reduceAndNotify(fetched, waiting: true)
                if let recordedRegion {
                    writer.asyncWriteWithoutTransaction { [self] _ in
                        didFetchOnReader(installing: recordedRegion)
                    }
                } else {
                    didFetchOnReader()
                }
            } catch {
                fail(error)
            }
        }
    }

    /// After a fetch on a reader that recorded no region: fetches again if
    /// a commit impacted the region meanwhile. The region is then constant,
    /// and known: the next fetch records none either.
    private func didFetchOnReader() {
        let fetchesAgain = lock.withLock {
            guard state.isActive, state.needsFetch else {
                state.isFetching = false
                return false
            }
            state.needsFetch = false
            return true
        }
        if fetchesAgain { startFetchOnReader(recordingRegion: false) }
    }

    /// After a fetch on a reader that recorded a region, on the writer
    /// queue: installs the region, and fetches again if a commit made since
    /// the fetch started modified one of its tables.
    private func didFetchOnReader(installing recordedRegion: DatabaseRegion) {
        guard isActive else { return }
        install(region: recordedRegion)
        logsModifiedTables = false
        let impacted = modifiesUnknownTables || modifiedTables.contains { table in
            recordedRegion.isModified(byEventsOfKind: .delete(tableName: table))
        }
        modifiedTables = []
        modifiesUnknownTables = false
        let fetchesAgain = lock.withLock {
            guard state.isActive, impacted || state.needsFetch else {
                state.isFetching = false
                return false
            }
            state.needsFetch = false
            return true
        }
        if fetchesAgain { startFetchOnReader(recordingRegion: nextFetchRecordsRegion) }
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
        if logsModifiedTables { return true }
        // SQLite empties a table without telling its rows unless its
        // deletions are observed, and decides it when the DELETE compiles:
        // a region recorded later may need them.
        if case .delete = eventKind, recordsRegions { return true }
        guard let region else { return false }
        return region.isModified(byEventsOfKind: eventKind)
    }

    /// Whether fetches may record a new region.
    private var recordsRegions: Bool {
        if case .nonConstantRegionRecordedFromSelection = trackingMode { return true }
        return region == nil
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if isFetchingOnWriter { return }
        if logsModifiedTables || recordsRegions {
            // Changes outside of the region are told too.
            guard isInMainDatabase(event) else { return }
            if logsModifiedTables { uncommittedModifiedTables.insert(event.tableName) }
            if !isModified, let region, region.isModified(byEventsOfKind: .delete(tableName: event.tableName)),
               region.isModified(by: event)
            {
                isModified = true
            }
            return
        }
        if let region, region.isModified(by: event), isInMainDatabase(event) {
            isModified = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        // A change the connection could not see row by row
        // (`Database.notifyChanges(in:)`): the region, or any table.
        if isFetchingOnWriter { return }
        isModified = true
        if logsModifiedTables { uncommittedModifiesUnknownTables = true }
    }

    /// Whether the change is in the main database: an attached one (the
    /// destination of an export) is not observed.
    private func isInMainDatabase(_ event: DatabaseEvent) -> Bool {
        event.databaseName == "main"
    }

    func databaseDidCommit(_ db: Database) {
        if logsModifiedTables {
            modifiedTables.formUnion(uncommittedModifiedTables)
            modifiesUnknownTables = modifiesUnknownTables || uncommittedModifiesUnknownTables
        }
        uncommittedModifiedTables = []
        uncommittedModifiesUnknownTables = false
        guard isModified else { return }
        isModified = false
        guard isActive else { return }
        events.databaseDidChange?()
        if fetchesOnReaders {
            let startsFetch = lock.withLock {
                if state.isFetching {
                    state.needsFetch = true
                    return false
                }
                state.isFetching = true
                return true
            }
            if startsFetch { startFetchOnReader(recordingRegion: nextFetchRecordsRegion) }
        } else {
            do {
                let (fetched, recordedRegion) = try fetchOnWriter(db, recordingRegion: nextFetchRecordsRegion)
                if let recordedRegion { install(region: recordedRegion) }
                reduceAndNotify(fetched)
            } catch {
                fail(error)
            }
        }
    }

    func databaseDidRollback(_ db: Database) {
        isModified = false
        uncommittedModifiedTables = []
        uncommittedModifiesUnknownTables = false
    }
}
