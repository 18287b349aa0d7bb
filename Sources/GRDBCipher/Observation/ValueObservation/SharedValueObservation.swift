import Dispatch
import Foundation

/// How long a ``SharedValueObservation`` observes the database.
public enum SharedValueObservationExtent: Sendable {
    /// One database observation, which stops when the shared observation is
    /// deallocated and all its subscriptions have ended. An error is final:
    /// later subscriptions receive it.
    case observationLifetime

    /// The database is observed while the shared observation has
    /// subscriptions; the next subscription after the last one ended, or
    /// after an error, starts observing again.
    case whileObserved
}

extension ValueObservation {
    /// Returns an observation that several subscribers share: a fresh value
    /// is fetched once per change, and notified to all of them. A subscriber
    /// receives the last value first, then the fresh ones.
    ///
    /// ```swift
    /// let sharedPlayers = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .shared(in: dbPool, scheduling: .async(onQueue: myQueue))
    /// let cancellable1 = sharedPlayers.start(onError: { _ in }, onChange: { players in ... })
    /// let cancellable2 = sharedPlayers.start(onError: { _ in }, onChange: { players in ... })
    /// ```
    ///
    /// - parameter reader: The database to observe.
    /// - parameter scheduler: Where values and errors are notified; the main
    ///   dispatch queue by default, as in GRDB.
    /// - parameter extent: How long the database is observed.
    public func shared(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        extent: SharedValueObservationExtent = .whileObserved
    ) -> SharedValueObservation<Reducer.Value> {
        SharedValueObservation(scheduler: scheduler, extent: extent) { onError, onChange in
            self.start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

/// A ``ValueObservation`` whose subscribers share one database observation.
/// Make it with ``ValueObservation/shared(in:scheduling:extent:)``.
public final class SharedValueObservation<Element: Sendable>: @unchecked Sendable {
    // Safe: the mutable state is only touched while `lock` is held, and
    // callbacks are called outside of it.
    private typealias Start = @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Element) -> Void
    ) -> AnyDatabaseCancellable

    private struct Subscriber {
        var onError: @Sendable (any Error) -> Void
        var onChange: @Sendable (Element) -> Void
        /// False until the subscriber got the last value: values that come
        /// before are not told to it.
        var isActive = false
    }

    private let scheduler: any ValueObservationScheduler
    private let extent: SharedValueObservationExtent
    private let startObservation: Start
    private let lock = NSLock()
    private var observation: AnyDatabaseCancellable?
    /// Set while the database is observed (also while it starts).
    private var isObserving = false
    /// Counts the database observations, so that a start that failed at
    /// once does not keep its cancellable.
    private var generation = 0
    private var lastResult: Result<Element, any Error>?
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriberID = 0

    fileprivate init(
        scheduler: some ValueObservationScheduler,
        extent: SharedValueObservationExtent,
        start: @escaping @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Element) -> Void
        ) -> AnyDatabaseCancellable)
    {
        self.scheduler = scheduler
        self.extent = extent
        self.startObservation = start
    }

    /// Subscribes to the shared observation, and starts observing the
    /// database if it does not yet.
    ///
    /// - parameter onError: Receives the error that ends the observation.
    /// - parameter onChange: Receives the last value, then the fresh ones.
    /// - returns: A cancellable that ends this subscription.
    @preconcurrency public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Element) -> Void
    ) -> AnyDatabaseCancellable {
        let (id, startedGeneration) = lock.withLock {
            let id = nextSubscriberID
            nextSubscriberID += 1
            subscribers[id] = Subscriber(onError: onError, onChange: onChange)
            // After a final error (`observationLifetime`), nothing starts.
            guard !isObserving, lastResult == nil else { return (id, Int?.none) }
            isObserving = true
            generation += 1
            return (id, generation)
        }
        if let startedGeneration {
            let cancellable = startObservation(
                { [weak self] error in self?.receive(.failure(error)) },
                { [weak self] value in self?.receive(.success(value)) })
            lock.withLock {
                if generation == startedGeneration, isObserving {
                    observation = cancellable
                }
            }
        }
        scheduler.scheduleInitial { [weak self] in self?.activate(id) }
        return AnyDatabaseCancellable { [self] in unsubscribe(id) }
    }

    /// Returns an asynchronous sequence of the shared values: the last one,
    /// then the fresh ones.
    ///
    /// - parameter bufferingPolicy: How many values wait for the consumer
    ///   (see `AsyncThrowingStream`); all of them by default.
    public func values(
        bufferingPolicy: AsyncValueObservation<Element>.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Element> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(onError: onError, onChange: onChange)
        }
    }

    /// Tells the subscriber the last result, and the next ones from now on.
    private func activate(_ id: Int) {
        let delivery: (Subscriber, Result<Element, any Error>?)? = lock.withLock {
            guard var subscriber = subscribers[id] else { return nil }
            subscriber.isActive = true
            subscribers[id] = subscriber
            if case .failure = lastResult { subscribers[id] = nil }
            return (subscriber, lastResult)
        }
        guard let (subscriber, result) = delivery, let result else { return }
        switch result {
        case .success(let value): subscriber.onChange(value)
        case .failure(let error): subscriber.onError(error)
        }
    }

    /// A value or the error of the database observation, for every
    /// active subscriber.
    private func receive(_ result: Result<Element, any Error>) {
        let recipients: [Subscriber] = lock.withLock {
            let recipients = subscribers.values.filter(\.isActive)
            switch result {
            case .success:
                lastResult = result
            case .failure:
                subscribers = subscribers.filter { !$0.value.isActive }
                switch extent {
                case .observationLifetime:
                    lastResult = result
                case .whileObserved:
                    // The next subscription observes again.
                    lastResult = nil
                    observation = nil
                    isObserving = false
                }
            }
            return recipients
        }
        for subscriber in recipients {
            switch result {
            case .success(let value): subscriber.onChange(value)
            case .failure(let error): subscriber.onError(error)
            }
        }
    }

    private func unsubscribe(_ id: Int) {
        let stopped: AnyDatabaseCancellable? = lock.withLock {
            subscribers[id] = nil
            guard subscribers.isEmpty, extent == .whileObserved else { return nil }
            defer {
                observation = nil
                lastResult = nil
                isObserving = false
            }
            return observation
        }
        stopped?.cancel()
    }
}
