/// Something that can be cancelled: a database observation.
public protocol DatabaseCancellable: Sendable {
    /// Cancels the activity. Cancelling twice does nothing more.
    func cancel()
}

/// A cancellable that runs a closure when cancelled, and cancels itself
/// when deallocated: keep it as long as the activity should last.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { _ in })
/// // ...
/// cancellable.cancel()
/// ```
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let cancelAction: LockedValue<(@Sendable () -> Void)?>

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool {
        cancelAction.withLock { $0 == nil }
    }

    /// A cancellable that runs `cancel` once, when it is cancelled or
    /// deallocated.
    public init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = LockedValue(cancel)
    }

    /// A cancellable that cancels `base`.
    public convenience init(_ base: some DatabaseCancellable) {
        self.init(cancel: { base.cancel() })
    }

    deinit {
        cancel()
    }

    /// Runs the cancel closure, the first time only.
    public func cancel() {
        let action = cancelAction.withLock { action in
            let taken = action
            action = nil
            return taken
        }
        action?()
    }
}
