import Foundation
import GRDBCipher
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServerApp

/// `GET /todos/events` on a live server: the server-sent events that a
/// `ValueObservation` of the encrypted pool feeds.
@Suite struct EventStreamTests {
    @Test func aStreamSendsTheListThenEachChange() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.live) { client in
            let stream = try EventStreamClient(port: try #require(client.port), path: "/todos/events")
            #expect(try await stream.statusLine() == "HTTP/1.1 200 OK")
            #expect(try await stream.nextData() == "[]")

            let created = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "watch me"}"#))
            let id = try #require(try decode(Todo.self, created).id)
            #expect(try decodeEvent(try await stream.nextData()) == [Todo(id: id, title: "watch me")])

            _ = try await client.execute(
                uri: "/todos/\(id)", method: .patch, headers: jsonHeaders(), body: json(#"{"completed": true}"#))
            #expect(try decodeEvent(try await stream.nextData()) == [Todo(id: id, title: "watch me", completed: true)])

            #expect(try await client.execute(uri: "/todos/\(id)", method: .delete).status == .noContent)
            #expect(try await stream.nextData() == "[]")
        }
    }

    /// With `completed=true`, adding an open item leaves the streamed list as
    /// it was: no event. The next event is the completion.
    @Test func aFilteredStreamSkipsCommitsThatLeaveItsListAsItWas() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.live) { client in
            let stream = try EventStreamClient(port: try #require(client.port), path: "/todos/events?completed=true")
            #expect(try await stream.nextData() == "[]")
            var ids: [Int64] = []
            for title in ["one", "two", "three"] {
                let created = try await client.execute(
                    uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "\#(title)"}"#))
                ids.append(try #require(try decode(Todo.self, created).id))
            }
            _ = try await client.execute(
                uri: "/todos/\(ids[1])", method: .patch, headers: jsonHeaders(), body: json(#"{"completed": true}"#))
            #expect(try decodeEvent(try await stream.nextData()) == [Todo(id: ids[1], title: "two", completed: true)])
        }
    }

    @Test func streamsOverTheCapacityGet503UntilOneEnds() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = testConfiguration(directory)
        configuration.maximumEventStreams = 1
        configuration.eventHeartbeat = .milliseconds(50)
        let server = try buildApplication(configuration, logger: quietLogger)
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            let first = try EventStreamClient(port: port, path: "/todos/events")
            #expect(try await first.nextData() == "[]")
            let second = try EventStreamClient(port: port, path: "/todos/events")
            #expect(try await second.statusLine() == "HTTP/1.1 503 Service Unavailable")

            // Once the first client leaves, its slot is free again: with
            // nothing to send, a heartbeat's write to the closed socket fails.
            first.disconnect()
            var status = ""
            for _ in 0..<300 where status != "HTTP/1.1 200 OK" {
                status = try await EventStreamClient(port: port, path: "/todos/events").statusLine()
                if status != "HTTP/1.1 200 OK" { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(status == "HTTP/1.1 200 OK")
        }
    }

    @Test func aMalformedQueryGets400() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            let badLimit = try await client.execute(uri: "/todos/events?limit=0", method: .get)
            #expect(badLimit.status == .badRequest)
            let badFilter = try await client.execute(uri: "/todos/events?completed=maybe", method: .get)
            #expect(badFilter.status == .badRequest)
        }
    }
}

private func decodeEvent(_ data: String) throws -> [Todo] {
    try JSONDecoder().decode([Todo].self, from: Data(data.utf8))
}
