import Foundation
import GRDBCipher
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// `GET /todos/events`: a server-sent events stream of the to-do list, fed
/// by a `ValueObservation` on the pool.
///
/// The first event carries the list as it is when the client connects; each
/// later event carries it after a commit that changed it (commits that leave
/// it as it was send nothing). The query parameters are those of
/// `GET /todos` (`limit`, `offset` up to ``TodoPage/maximumStreamOffset``,
/// `completed`). Each event is
///
///     event: todos
///     data: [{"id":1,"title":"…","completed":false}]
///
/// Streams of the same page share one observation (``PageObservations``): a
/// commit fetches each page once, however many streams show it.
///
/// Each event is the whole page, so a stream keeps only the newest page that
/// waits to be sent (see ``EventMailbox``): a client that does not read costs
/// one page, not one page per commit. A write that waits longer than the
/// write timeout for such a client closes the connection (``ConnectionGuard``),
/// which ends the stream and frees its slot.
///
/// A stream ends when the client goes away, when the server shuts down
/// gracefully (SIGTERM ends every stream, so that the shutdown does not wait
/// for clients that never leave; a stream whose client does not read is
/// closed at once), or after an `event: error` if the database fails. An
/// idle stream sends a `: keep-alive` comment line every `heartbeat`:
/// proxies keep the connection open, and a client that left is noticed (the
/// write fails) even when nothing changes. At most ``StreamSlots/capacity``
/// streams run at once; a request over it gets 503. With
/// `TODOSERVER_EVENTS_TOKEN` set, a stream needs `Authorization: Bearer …`
/// (401 without it), checked before it takes a slot.
struct TodoEventsController: Sendable {
    let pages: PageObservations
    let slots: StreamSlots
    /// The token a stream requires, if any (401 without it).
    let token: AdminToken?
    /// How often an idle stream sends a `: keep-alive` comment line.
    let heartbeat: Duration
    let logger: Logger

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("events", use: stream)
    }

    @Sendable func stream(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try token?.authorize(request)
        let page = try TodoPage(request.uri.queryParameters, maximumOffset: TodoPage.maximumStreamOffset)
        guard let slot = slots.take() else {
            throw HTTPError(.serviceUnavailable, message: "too many event streams")
        }
        let pages = pages
        let logger = logger
        let heartbeat = heartbeat
        let body = ResponseBody { writer in
            // Streams of the same page share its observation: one fetch per
            // commit for all of them. The mailbox keeps the newest page only.
            let values = pages.acquire(page).values(bufferingPolicy: .bufferingNewest(1))
            // The page and the slot are free again once the stream ends,
            // however it ends (a body never written frees the slot only).
            defer {
                pages.release(page)
                slot.release()
            }
            let mailbox = slot.mailbox
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await todos in values { mailbox.publish(todos) }
                    } catch is CancellationError {
                    } catch {
                        logger.error("event stream failed", metadata: ["error": "\(error)"])
                        mailbox.fail()
                    }
                }
                group.addTask {
                    // A comment line now and then: proxies keep the connection,
                    // and a write to a client that left ends the stream.
                    while true {
                        try await Task.sleep(for: heartbeat)
                        mailbox.keepAlive()
                    }
                }
                let encoder = JSONEncoder()
                try await withGracefulShutdownHandler {
                    while let message = await mailbox.next() {
                        try await writer.write(ByteBuffer(string: try Self.text(of: message, encoder: encoder)))
                    }
                } onGracefulShutdown: {
                    mailbox.close()
                }
                group.cancelAll()
            }
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The lines of one message.
    static func text(of message: EventMailbox.Message, encoder: JSONEncoder) throws -> String {
        switch message {
        case .page(let todos): return try event(todos, encoder: encoder)
        case .keepAlive: return ": keep-alive\n\n"
        case .failure: return "event: error\ndata: the database failed\n\n"
        }
    }

    /// One `todos` event: JSON has no line break, so `data` is one line.
    static func event(_ todos: [Todo], encoder: JSONEncoder) throws -> String {
        let json = String(decoding: try encoder.encode(todos), as: UTF8.self)
        return "event: todos\ndata: \(json)\n\n"
    }
}

/// A counter of the event streams that run, with a capacity: each stream
/// holds an observation, so their number is bounded.
final class StreamSlots: Sendable {
    private struct State {
        var running: [ObjectIdentifier: EventMailbox] = [:]
    }

    private let state = Mutex(State())
    /// The most streams that may run at once.
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity >= 0)
        self.capacity = capacity
    }

    /// The number of streams that run now.
    var count: Int { state.withLock { $0.running.count } }

    /// The mailboxes of the streams that run now (tests read their counts).
    var mailboxes: [EventMailbox] { state.withLock { Array($0.running.values) } }

    /// A slot, or nil when every slot is taken.
    func take() -> Slot? {
        state.withLock { state in
            guard state.running.count < capacity else { return nil }
            let slot = Slot(slots: self)
            state.running[ObjectIdentifier(slot)] = slot.mailbox
            return slot
        }
    }

    fileprivate func give(_ slot: Slot) {
        _ = state.withLock { $0.running.removeValue(forKey: ObjectIdentifier(slot)) }
    }

    /// A taken slot and the mailbox of its stream. It is given back by
    /// ``release()``, or when it is deinitialized (a response never written).
    final class Slot: Sendable {
        let mailbox = EventMailbox()
        private let slots: StreamSlots
        private let released = Mutex(false)

        fileprivate init(slots: StreamSlots) { self.slots = slots }

        /// Gives the slot back; later calls do nothing.
        func release() {
            let first = released.withLock { released in
                defer { released = true }
                return !released
            }
            if first { slots.give(self) }
        }

        deinit { release() }
    }
}
