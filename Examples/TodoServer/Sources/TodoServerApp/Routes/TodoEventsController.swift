import Foundation
import GRDBCipher
import Hummingbird
import Logging
import ServiceLifecycle

/// `GET /todos/events`: a server-sent events stream of the to-do list, fed
/// by a `ValueObservation` on the pool.
///
/// The first event carries the list as it is when the client connects; each
/// later event carries it after a commit that changed it (commits that leave
/// it as it was send nothing). The query parameters are those of
/// `GET /todos` (`limit`, `offset`, `completed`). Each event is
///
///     event: todos
///     data: [{"id":1,"title":"…","completed":false}]
///
/// A stream ends when the client goes away, when the server shuts down
/// gracefully (SIGTERM ends every stream, so that the shutdown does not wait
/// for clients that never leave), or after an `event: error` if the database
/// fails. An idle stream sends a `: keep-alive` comment line every
/// `heartbeat`: proxies keep the connection open, and a client that left is
/// noticed (the write fails) even when nothing changes. At most
/// ``StreamSlots/capacity`` streams run at once; a request over it gets 503.
struct TodoEventsController: Sendable {
    let database: DatabasePool
    let slots: StreamSlots
    /// How often an idle stream sends a `: keep-alive` comment line.
    let heartbeat: Duration
    let logger: Logger

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("events", use: stream)
    }

    @Sendable func stream(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let page = try TodoPage(request.uri.queryParameters)
        guard let slot = slots.take() else {
            throw HTTPError(.serviceUnavailable, message: "too many event streams")
        }
        let observation = ValueObservation
            .tracking { db in try page.request.fetchAll(db) }
            .removeDuplicates()
        let values = observation.values(in: database)
        let logger = logger
        let heartbeat = heartbeat
        let body = ResponseBody { writer in
            // The slot is free again once the body is gone (written or not).
            withExtendedLifetime(slot) {}
            let (texts, output) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let encoder = JSONEncoder()
                    do {
                        for try await todos in values {
                            output.yield(try Self.event(todos, encoder: encoder))
                        }
                    } catch is CancellationError {
                    } catch {
                        logger.error("event stream failed", metadata: ["error": "\(error)"])
                        output.yield("event: error\ndata: the database failed\n\n")
                    }
                    output.finish()
                }
                group.addTask {
                    // A comment line now and then: proxies keep the connection,
                    // and a write to a client that left ends the stream.
                    while !Task.isCancelled {
                        try await Task.sleep(for: heartbeat)
                        output.yield(": keep-alive\n\n")
                    }
                }
                for await text in texts.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: text))
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

    /// One `todos` event: JSON has no line break, so `data` is one line.
    static func event(_ todos: [Todo], encoder: JSONEncoder) throws -> String {
        let json = String(decoding: try encoder.encode(todos), as: UTF8.self)
        return "event: todos\ndata: \(json)\n\n"
    }
}

/// A counter of the event streams that run, with a capacity: each stream
/// holds an observation, so their number is bounded.
final class StreamSlots: @unchecked Sendable {
    // Safe: `running` is only touched while `lock` is held.
    private let lock = NSLock()
    private var running = 0
    /// The most streams that may run at once.
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity >= 0)
        self.capacity = capacity
    }

    /// The number of streams that run now.
    var count: Int { lock.withLock { running } }

    /// A slot, or nil when every slot is taken.
    func take() -> Slot? {
        lock.withLock {
            guard running < capacity else { return nil }
            running += 1
            return Slot(slots: self)
        }
    }

    fileprivate func give() {
        lock.withLock { running -= 1 }
    }

    /// A taken slot, given back when it is deinitialized.
    final class Slot: Sendable {
        private let slots: StreamSlots
        fileprivate init(slots: StreamSlots) { self.slots = slots }
        deinit { slots.give() }
    }
}
