import Foundation
import GRDBCipher
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServerApp

/// Clients that hold connections without using them, and requests for other
/// host names, on a live server through raw sockets (the HTTP test clients
/// only send whole, well-formed requests).
@Suite struct HostileClientTests {
    /// A request whose head never ends, and a connection left idle after
    /// its answer: both are closed after the idle timeout.
    @Test func idleConnectionsAreClosed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = testConfiguration(directory)
        configuration.idleTimeout = .milliseconds(300)
        let server = try buildApplication(configuration, logger: quietLogger)
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            let halfSent = try EventStreamClient(port: port, request: "GET /health HTTP/1.1\r\nHo")
            try await halfSent.waitForEnd()
            #expect(halfSent.unparsedText.isEmpty, "the half-sent request got an answer")

            let answered = try EventStreamClient(port: port, request: "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try await answered.statusLine() == "HTTP/1.1 200 OK")
            try await answered.waitForEnd()
        }
    }

    /// A body sent a little at a time counts as activity for the idle
    /// timeout; the request timeout bounds the whole request.
    @Test func aRequestThatDoesNotArriveInTimeIsClosed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = testConfiguration(directory)
        configuration.idleTimeout = .seconds(3600)
        configuration.requestTimeout = .milliseconds(300)
        let server = try buildApplication(configuration, logger: quietLogger)
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            let slow = try EventStreamClient(
                port: port,
                request: "POST /todos HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"title\": ")
            try await slow.waitForEnd()
            #expect(!slow.unparsedText.contains("201"))
        }
        let queue = try openQueue(directory.file("todos.sqlite"), passphrase: testPassphrase)
        #expect(try await queue.read { db in try Todo.fetchCount(db) } == 0)
    }

    @Test func requestsForOtherHostsAreRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.database.write { db in _ = try Todo(title: "secret plans").inserted(db) }
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            func status(_ request: String) async throws -> (String, String) {
                let raw = try EventStreamClient(port: port, request: request)
                let status = try await raw.statusLine()
                try await raw.waitForEnd()
                return (status, raw.unparsedText)
            }
            let rebound = try await status("GET /todos HTTP/1.1\r\nHost: attacker.example:\(port)\r\nConnection: close\r\n\r\n")
            #expect(rebound.0 == "HTTP/1.1 421 Misdirected Request")
            #expect(!rebound.1.contains("secret plans"))
            let noHost = try await status("GET /todos HTTP/1.1\r\nConnection: close\r\n\r\n")
            #expect(noHost.0 == "HTTP/1.1 400 Bad Request")
            #expect(!noHost.1.contains("secret plans"))
            for host in ["localhost:1", "LOCALHOST", "127.0.0.1:\(port)", "[::1]:\(port)"] {
                let served = try await status("GET /todos HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                #expect(served.0 == "HTTP/1.1 200 OK", "\(host)")
                #expect(served.1.contains("secret plans"), "\(host)")
            }
        }
    }

    @Test func allowedHostsFromTheEnvironment() throws {
        let loopback = try ServerConfiguration.fromEnvironment(["TODOSERVER_PLAINTEXT": "1"]).allowedHosts
        #expect(loopback.allows(authority: "localhost:8080"))
        #expect(loopback.allows(authority: "127.0.0.1"))
        #expect(!loopback.allows(authority: "attacker.example"))
        #expect(!loopback.allows(authority: "localhost.attacker.example"))

        let wildcard = try ServerConfiguration.fromEnvironment(["TODOSERVER_PLAINTEXT": "1", "HOST": "0.0.0.0"]).allowedHosts
        #expect(wildcard.allows(authority: "localhost"))
        #expect(!wildcard.allows(authority: "0.0.0.0"))
        #expect(!wildcard.allows(authority: "todos.example.com"))

        let listed = try ServerConfiguration.fromEnvironment([
            "TODOSERVER_PLAINTEXT": "1", "HOST": "0.0.0.0", "TODOSERVER_ALLOWED_HOSTS": "todos.example.com, 10.0.0.5",
        ]).allowedHosts
        #expect(listed.allows(authority: "Todos.Example.com."))
        #expect(listed.allows(authority: "10.0.0.5:8080"))
        #expect(!listed.allows(authority: "localhost"))

        let any = try ServerConfiguration.fromEnvironment(["TODOSERVER_PLAINTEXT": "1", "TODOSERVER_ALLOWED_HOSTS": "*"])
        #expect(any.allowedHosts == .any)
        for list in [",", "*,example.com"] {
            #expect(throws: ConfigurationError.self, "\(list)") {
                _ = try ServerConfiguration.fromEnvironment(["TODOSERVER_PLAINTEXT": "1", "TODOSERVER_ALLOWED_HOSTS": list])
            }
        }
    }
}

/// Waits until the listening socket on `port` has `length` connections that
/// the kernel completed and the server has not accepted (`rx_queue` of a
/// listening socket in `/proc/net/tcp`).
func waitForAcceptQueue(port: Int, length: Int, seconds: Int = 30) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    let localAddress = "0100007F:" + String(format: "%04X", port)
    while ContinuousClock.now < deadline {
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            // sl, local_address, rem_address, st (0A: listening), tx_queue:rx_queue
            guard fields.count > 4, fields[1] == localAddress, fields[3] == "0A" else { continue }
            let queue = fields[4].split(separator: ":")
            if queue.count == 2, Int(queue[1], radix: 16) == length { return true }
        }
        try await Task.sleep(for: .milliseconds(10))
    }
    return false
}
