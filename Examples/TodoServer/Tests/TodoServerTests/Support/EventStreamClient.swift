import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP client on a blocking socket, for server-sent events and for
/// requests the HTTP test clients cannot send (half-sent, without `Host`):
/// it sends a request, then a thread of its own reads the response and
/// collects the `data:` lines of its events. The HTTP test clients wait for
/// the whole body, which an event stream never ends.
final class EventStreamClient: @unchecked Sendable {
    // Safe: the variables below `lock` are only touched while it is held.
    private let lock = NSLock()
    private var status: String?
    private var received = ""
    private var events: [String] = []
    private var ended = false
    private let socket: Int32

    /// Connects to `127.0.0.1:port`, sends `GET path`, and starts reading.
    convenience init(port: Int, path: String, host: String = "127.0.0.1") throws {
        try self.init(port: port, request: "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nAccept: text/event-stream\r\n\r\n")
    }

    /// Connects to `127.0.0.1:port`, sends `request` as it is (a request
    /// may be sent in parts: see ``send(_:)``), and starts reading.
    init(port: Int, request: String) throws {
        socket = try connectLoopback(port: port)
        sendAll(socket, request)
        let thread = Thread { [self] in readUntilEnd() }
        thread.start()
    }

    /// Sends more bytes.
    func send(_ text: String) {
        sendAll(socket, text)
    }

    // The descriptor is closed here and nowhere else. The reading thread
    // retains the client, so this runs only once that thread has ended: the
    // number cannot have been given to another socket of the process yet (a
    // `shutdown` or `close` after an earlier `close` would cut whatever
    // connection reused it, such as another test's HTTP client).
    deinit { close(socket) }

    /// Ends the connection (the server sees the client go away). The
    /// descriptor stays open until the client is released.
    func disconnect() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    private func readUntilEnd() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            lock.withLock {
                received += text
                if status == nil, let end = received.range(of: "\r\n") {
                    status = String(received[..<end.lowerBound])
                }
                // Each event is written in one chunk: whole lines arrive together.
                while let end = received.range(of: "\n\n") {
                    let block = String(received[..<end.lowerBound])
                    received.removeSubrange(..<end.upperBound)
                    for line in block.split(separator: "\n") where line.hasPrefix("data: ") {
                        events.append(String(line.dropFirst(6)))
                    }
                }
            }
        }
        lock.withLock { ended = true }
    }

    /// The status line of the response (`HTTP/1.1 200 OK`), once received.
    func statusLine(seconds: Double = 30) async throws -> String {
        try await wait(seconds: seconds) { [self] in
            lock.withLock { status }
        }
    }

    /// The `data` of the next event, in order.
    func nextData(seconds: Double = 30) async throws -> String {
        try await wait(seconds: seconds) { [self] in
            lock.withLock { events.isEmpty ? nil : events.removeFirst() }
        }
    }

    /// Waits until the server ends the response.
    func waitForEnd(seconds: Double = 30) async throws {
        try await wait(seconds: seconds) { [self] in lock.withLock { ended ? () : nil } }
    }

    /// Whether the server has closed the connection.
    var hasEnded: Bool { lock.withLock { ended } }

    /// Everything received and not parsed as events yet (a whole ordinary
    /// response, once it has ended).
    var unparsedText: String { lock.withLock { received } }

    private func wait<T>(seconds: Double, for value: () -> T?) async throws -> T {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let value = value() { return value }
            try await Task.sleep(for: .milliseconds(10))
        }
        if let value = value() { return value }
        throw EventStreamTimeout()
    }
}

/// Nothing came from the event stream in time.
struct EventStreamTimeout: Error {}
