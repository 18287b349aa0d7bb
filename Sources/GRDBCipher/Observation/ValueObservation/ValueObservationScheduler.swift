import Dispatch
import Foundation

/// Decides where and when a ``ValueObservation`` notifies its values and
/// its error.
///
/// The built-in schedulers are ``async(onQueue:)``, ``task``,
/// ``task(priority:)``, ``mainActor`` and ``immediate``.
public protocol ValueObservationScheduler: Sendable {
    /// Whether the initial value is fetched and notified synchronously, when
    /// the observation starts. A scheduler that returns true is called on the
    /// main thread.
    func immediateInitialValue() -> Bool

    /// Schedules a notification. Notifications must run in the order they
    /// are scheduled, one at a time.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

extension ValueObservationScheduler {
    /// Runs the notification of the initial value: now for an immediate
    /// scheduler, scheduled otherwise.
    func scheduleInitial(_ action: @escaping @Sendable () -> Void) {
        if immediateInitialValue() {
            action()
        } else {
            schedule(action)
        }
    }
}

/// A ``ValueObservationScheduler`` that notifies on the main actor.
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {
    /// Schedules a notification on the main actor.
    func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void)
}

extension ValueObservationMainActorScheduler {
    /// Schedules a notification on the main actor.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        scheduleOnMainActor(action)
    }
}

/// A scheduler that notifies values asynchronously on a dispatch queue.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    let queue: DispatchQueue

    /// Creates a scheduler that notifies on `queue`, which should be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// False: the initial value is notified asynchronously too.
    public func immediateInitialValue() -> Bool { false }

    /// Schedules the notification on the dispatch queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// A scheduler that notifies values asynchronously on `queue`.
    ///
    /// ```swift
    /// let cancellable = observation.start(
    ///     in: dbPool,
    ///     scheduling: .async(onQueue: myQueue),
    ///     onError: { error in ... },
    ///     onChange: { players in ... })
    /// ```
    ///
    /// - warning: Give a serial queue: a concurrent queue would notify
    ///   values out of order.
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

/// A scheduler that notifies values on the main actor, and the initial
/// value synchronously, when the observation starts.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
    /// Creates the scheduler.
    public init() {}

    /// True. Traps unless called on the main thread, as in GRDB (or from
    /// the main dispatch queue, which serves the main actor: on Linux, once
    /// the main thread has called `dispatchMain()`, another thread runs it).
    public func immediateInitialValue() -> Bool {
        precondition(
            Thread.isMainThread || MainQueueMarker.isOnMainQueue,
            "ValueObservation must be started from the main thread.")
        return true
    }

    /// Schedules the notification on the main dispatch queue.
    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        DispatchQueue.main.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// A scheduler that notifies values on the main actor, and the initial
    /// value synchronously, before `start` returns.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
    ///     ...
    /// } onChange: { players in
    ///     ...
    /// }
    /// // Here the initial value was notified.
    /// ```
    ///
    /// - important: The observation must be started from the main thread
    ///   (a precondition traps otherwise).
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

extension ValueObservationMainActorScheduler where Self == ImmediateValueObservationScheduler {
    /// A scheduler that notifies values on the main actor, and the initial
    /// value synchronously, before `start` returns.
    ///
    /// - important: The observation must be started from the main thread
    ///   (a precondition traps otherwise).
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

/// A scheduler that notifies values on the main actor, asynchronously.
public final class DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
    init() {}

    /// False: the initial value is notified asynchronously too.
    public func immediateInitialValue() -> Bool { false }

    /// Schedules the notification on the main dispatch queue.
    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        DispatchQueue.main.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// A scheduler that notifies values on the main actor, asynchronously.
    public static var mainActor: DelayedMainActorValueObservationScheduler {
        DelayedMainActorValueObservationScheduler()
    }
}

/// A scheduler that notifies values, in order, from a task of the
/// cooperative thread pool.
public final class TaskValueObservationScheduler: ValueObservationScheduler {
    private let actions: AsyncStream<@Sendable () -> Void>.Continuation

    init(priority: TaskPriority?) {
        let (stream, continuation) = AsyncStream<@Sendable () -> Void>.makeStream()
        actions = continuation
        // One task runs the notifications one after the other, in order.
        Task(priority: priority) {
            for await action in stream {
                action()
            }
        }
    }

    // Notifications already scheduled still run; then the task ends.
    deinit {
        actions.finish()
    }

    /// False: the initial value is notified asynchronously too.
    public func immediateInitialValue() -> Bool { false }

    /// Schedules the notification after the ones already scheduled.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        actions.yield(action)
    }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
    /// A scheduler that notifies values from a task of the cooperative thread pool.
    public static var task: TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: nil)
    }

    /// A scheduler that notifies values from a task with the given priority.
    public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: priority)
    }
}

/// Tells whether the current code runs on the main dispatch queue.
enum MainQueueMarker {
    private static let key: DispatchSpecificKey<Void> = {
        let key = DispatchSpecificKey<Void>()
        DispatchQueue.main.setSpecific(key: key, value: ())
        return key
    }()

    static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: key) != nil
    }
}
