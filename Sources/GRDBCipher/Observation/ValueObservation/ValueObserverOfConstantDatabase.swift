import Foundation

/// A ``ValueObservation`` of a database that cannot change (a snapshot, a
/// read-only database): it fetches and notifies one value.
final class ValueObserverOfConstantDatabase<Reducer: ValueReducer>: @unchecked Sendable {
    // Safe: `isActive` is behind `lock`; `observation` is a Sendable value.
    private let observation: ValueObservation<Reducer>
    private let reader: any DatabaseReader
    private let scheduler: any ValueObservationScheduler
    private let onChange: @Sendable (Reducer.Value) -> Void
    private let lock = NSLock()
    private var isActive = true

    init(
        observation: ValueObservation<Reducer>,
        reader: any DatabaseReader,
        scheduler: any ValueObservationScheduler,
        onChange: @escaping @Sendable (Reducer.Value) -> Void)
    {
        self.observation = observation
        self.reader = reader
        self.scheduler = scheduler
        self.onChange = onChange
    }

    func start() -> AnyDatabaseCancellable {
        let cancellable = AnyDatabaseCancellable { [self] in cancel() }
        if scheduler.immediateInitialValue() {
            let result = Result { try reader.read { try self.fetchValue($0) } }
            notify(result, now: true)
        } else {
            reader.asyncRead { [self] result in
                notify(Result { try fetchValue(result.get()) }, now: false)
            }
        }
        return cancellable
    }

    private func fetchValue(_ db: Database) throws -> Reducer.Value {
        var reducer = observation.makeReducer()
        guard let value = try reducer._value(reducer._makeFetcher().fetch(db)) else {
            fatalError("ValueObservation: the reducer gave no initial value")
        }
        return value
    }

    private func notify(_ result: Result<Reducer.Value, any Error>, now: Bool) {
        let onChange = self.onChange
        let didFail = observation.events.didFail
        let action: @Sendable () -> Void = { [self] in
            guard lock.withLock({ isActive }) else { return }
            switch result {
            case .success(let value): onChange(value)
            case .failure(let error):
                lock.withLock { isActive = false }
                didFail?(error)
            }
        }
        if now { action() } else { scheduler.schedule(action) }
    }

    private func cancel() {
        let wasActive = lock.withLock {
            defer { isActive = false }
            return isActive
        }
        if wasActive { observation.events.didCancel?() }
    }
}
