import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket connected to `127.0.0.1:port`. The caller owns the
/// descriptor and closes it exactly once.
///
/// - Parameter receiveBufferSize: `SO_RCVBUF`, set before connecting so that
///   the window the client announces stays that small.
func connectLoopback(port: Int, receiveBufferSize: Int? = nil) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    if var size = receiveBufferSize.map(Int32.init) {
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(socket)
        throw POSIXError(.ECONNREFUSED)
    }
    return socket
}

/// Sends all of `text` on `socket`.
func sendAll(_ socket: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let sent = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent <= 0 { return }
        bytes = bytes.dropFirst(sent)
    }
}

/// A client that sends one request and never reads: the server's writes to
/// it pile up in the connection's buffers until they are full.
final class StalledClient: @unchecked Sendable {
    // Safe: `socket` is immutable, and closed only in `deinit`.
    private let socket: Int32

    /// Connects with a small receive buffer and sends `GET path`.
    init(port: Int, path: String) throws {
        socket = try connectLoopback(port: port, receiveBufferSize: 4096)
        sendAll(socket, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    }

    deinit { close(socket) }

    /// The bytes received and not read.
    var bytesWaiting: Int {
        var count: Int32 = 0
        _ = ioctl(socket, UInt(FIONREAD), &count)
        return Int(count)
    }

    /// Waits until the server has sent something.
    func waitForBytes(seconds: Double = 30) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while bytesWaiting == 0 {
            guard ContinuousClock.now < deadline else { throw EventStreamTimeout() }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
