import Synchronization

/// What one event stream sends next: the newest page only, else a keep-alive.
///
/// Each event of `GET /todos/events` is the whole page, so a page that has
/// not been sent yet is worthless once a newer one exists: the mailbox
/// keeps one page at most, and a newer page replaces it. A client that
/// reads slowly skips pages; one that does not read at all costs the
/// server one page (plus what the connection buffers), however many
/// commits happen.
final class EventMailbox: Sendable {
    /// The next thing to write.
    enum Message: Sendable {
        /// The page as of the latest change.
        case page([Todo])
        /// Nothing changed for a while: a comment line keeps the connection.
        case keepAlive
        /// The observation failed: the stream says so and ends.
        case failure
    }

    /// Counts of one stream, for tests and logs.
    struct Statistics: Sendable, Equatable {
        /// Pages the observation delivered.
        var published = 0
        /// Pages handed to the writer.
        var taken = 0
        /// Pages never sent: replaced by a newer one before the writer took
        /// them, or dropped when the stream ended.
        var skipped = 0
        /// Pages that wait for the writer now: published, neither taken nor
        /// skipped.
        var waiting: Int { published - taken - skipped }
    }

    private struct State {
        var page: [Todo]?
        var keepAlive = false
        var failed = false
        var closed = false
        var waiter: CheckedContinuation<Message?, Never>?
        var statistics = Statistics()

        /// The message to hand out now, if any; nil once closed and drained.
        mutating func take() -> Message?? {
            if let page {
                self.page = nil
                keepAlive = false
                statistics.taken += 1
                return .some(.page(page))
            }
            if failed {
                failed = false
                closed = true
                return .some(.failure)
            }
            if closed { return .some(nil) }
            if keepAlive {
                keepAlive = false
                return .some(.keepAlive)
            }
            return nil
        }
    }

    private let state = Mutex(State())

    /// The counts so far.
    var statistics: Statistics { state.withLock { $0.statistics } }

    /// Stores the newest page, replacing a page that still waits.
    func publish(_ page: [Todo]) {
        deliver { state in
            state.statistics.published += 1
            if state.page != nil { state.statistics.skipped += 1 }
            state.page = page
        }
    }

    /// Asks for a keep-alive comment, unless something else is to be sent.
    func keepAlive() {
        deliver { state in state.keepAlive = true }
    }

    /// Ends the stream with an error event, after the page that waits.
    func fail() {
        deliver { state in state.failed = true }
    }

    /// Ends the stream: the pending page is dropped.
    func close() {
        deliver { state in
            if state.page != nil { state.statistics.skipped += 1 }
            state.page = nil
            state.closed = true
        }
    }

    /// The next message, once there is one; nil when the stream ends (closed,
    /// after a failure, or when the waiting task is cancelled).
    func next() async -> Message? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Message?? in
                    if Task.isCancelled { state.closed = true }
                    if let message = state.take() { return message }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            close()
        }
    }

    /// Changes the state, then wakes the writer if it waits and there is
    /// something for it.
    private func deliver(_ change: (inout State) -> Void) {
        let wake = state.withLock { state -> (CheckedContinuation<Message?, Never>, Message?)? in
            change(&state)
            guard let waiter = state.waiter, let message = state.take() else { return nil }
            state.waiter = nil
            return (waiter, message)
        }
        if let (waiter, message) = wake { waiter.resume(returning: message) }
    }
}
