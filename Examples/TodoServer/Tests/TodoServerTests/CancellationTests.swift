import Foundation
import GRDBCipher
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServerApp

/// A request whose client goes away stops its database work.
@Suite struct CancellationTests {
    /// `GET /todos/search` while the pool's only reader is busy: the search
    /// waits for it. The client disconnects: the request's task is
    /// cancelled, and its read stops waiting instead of running later for
    /// nobody. Then the server answers the next search.
    @Test func aSearchWhoseClientLeavesStopsWaitingForTheDatabase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = testConfiguration(directory)
        configuration.maximumReaderCount = 1
        let lines = CapturingLogHandler.Lines()
        let server = try buildApplication(configuration, logger: CapturingLogHandler.logger(lines))
        try await server.database.write { db in
            _ = try Todo(title: "alpha").inserted(db)
            _ = try Todo(title: "beta").inserted(db)
        }
        // A thread of its own holds the only reader connection.
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let database = server.database
        Thread {
            try? database.read { _ in
                enteredContinuation.yield()
                release.wait()
            }
        }.start()
        for await _ in entered { break }
        defer { release.signal() }

        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            let leaving = try EventStreamClient(port: port, path: "/todos/search?q=ALP")
            #expect(try await lines.waitFor("hb.request.path=/todos/search"), "the request never reached the server")
            leaving.disconnect()
            #expect(try await lines.waitFor("search cancelled: the client went away"))

            release.signal()
            let response = try await client.execute(uri: "/todos/search?q=ALP", method: .get)
            #expect(response.status == .ok)
            #expect(try decode([Todo].self, response) == [Todo(id: 1, title: "alpha")])
        }
    }

    @Test func aSearchNeedsText() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        let long = String(repeating: "x", count: TodoSearchController.maximumLength + 1)
        for uri in ["/todos/search", "/todos/search?q=", "/todos/search?q=\(long)"] {
            let status = try await server.application.test(.router) { client in
                try await client.execute(uri: uri, method: .get).status
            }
            #expect(status == .badRequest, "\(uri)")
        }
    }
}
