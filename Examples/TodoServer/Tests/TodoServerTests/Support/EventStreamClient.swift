import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal server-sent events client on a blocking socket: it sends one
/// `GET`, then a thread of its own reads the response and collects the
/// `data:` lines of its events. The HTTP test clients wait for the whole
/// body, which an event stream never ends.
final class EventStreamClient: @unchecked Sendable {
    // Safe: the variables below `lock` are only touched while it is held.
    private let lock = NSLock()
    private var status: String?
    private var received = ""
    private var events: [String] = []
    private var ended = false
    private let socket: Int32

    /// Connects to `127.0.0.1:port`, sends `GET path`, and starts reading.
    init(port: Int, path: String) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // Throwing here releases the client: `deinit` closes the socket.
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(socket, $0, strlen($0), 0) }
        let thread = Thread { [self] in readUntilEnd() }
        thread.start()
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
