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

    /// Clients that never read while the page changes: each stream keeps
    /// the newest page only. Pages the client could not take are skipped,
    /// never queued: at most one waits, however many commits happen.
    @Test func aClientThatDoesNotReadCostsOnePage() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = testConfiguration(directory)
        configuration.maximumEventStreams = 3
        configuration.writeTimeout = .seconds(3600)
        let server = try buildApplication(configuration, logger: quietLogger)
        try await seedLargePage(server.database)
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            let stalled = try (0..<3).map { _ in try StalledClient(port: port, path: "/todos/events?limit=500") }
            for client in stalled { try await client.waitForBytes() }
            #expect(server.eventStreams.count == 3)
            let rounds = 25
            for round in 1...rounds {
                let patched = try await client.execute(
                    uri: "/todos/1", method: .patch, headers: jsonHeaders(), body: json(#"{"title": "round \#(round)"}"#))
                #expect(patched.status == .ok)
                // Each round's page reaches every stream before the next commit.
                let reached = try await waitUntil {
                    server.eventStreams.mailboxes.allSatisfy { $0.statistics.published > round }
                }
                #expect(reached, "round \(round) did not reach every stream")
            }
            for mailbox in server.eventStreams.mailboxes {
                let statistics = mailbox.statistics
                #expect(statistics.published == rounds + 1)
                #expect(statistics.waiting <= 1, "\(statistics)")
                #expect(statistics.skipped >= 1, "the client took every page: it was not stalled (\(statistics))")
            }
            withExtendedLifetime(stalled) {}
        }
    }

    /// Streams of one page share its observation: a commit fetches the page
    /// once, not once per stream (8 unshared streams would fetch it 8 times
    /// per commit). A page is no longer observed once its streams ended.
    @Test func streamsOfOnePageShareOneFetchPerCommit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await seedLargePage(server.database)
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            let streamCount = 8
            var streams: [EventStreamClient] = []
            for _ in 0..<streamCount {
                let stream = try EventStreamClient(port: port, path: "/todos/events?offset=100&limit=20")
                _ = try await stream.nextData()
                streams.append(stream)
            }
            let other = try EventStreamClient(port: port, path: "/todos/events?completed=true")
            _ = try await other.nextData()
            #expect(server.pageObservations.observedPageCount == 2)
            let fetchesBefore = server.pageObservations.fetchCount
            let rounds = 5
            for round in 1...rounds {
                let patched = try await client.execute(
                    uri: "/todos/101", method: .patch, headers: jsonHeaders(), body: json(#"{"title": "round \#(round)"}"#))
                #expect(patched.status == .ok)
                for stream in streams {
                    let page = try decodeEvent(try await stream.nextData())
                    #expect(page.first?.title == "round \(round)")
                }
            }
            let fetches = server.pageObservations.fetchCount - fetchesBefore
            // About one fetch per commit and page (2 pages), and maybe a
            // second initial fetch of each on the writer; unshared, the
            // first page alone would take one fetch per stream and commit.
            #expect(fetches >= rounds, "the fetches were not counted (\(fetches))")
            #expect(fetches < streamCount * rounds, "\(fetches) fetches for \(rounds) commits: the streams do not share")
            withExtendedLifetime(other) {}
        }
        #expect(try await waitUntil { server.pageObservations.observedPageCount == 0 })
    }

    /// With `TODOSERVER_EVENTS_TOKEN`, a stream without the token gets 401
    /// and takes no slot; with it, the stream runs.
    @Test func aStreamTokenIsRequiredWhenConfigured() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = testConfiguration(directory)
        let token = "events-token-0123456789"
        configuration.eventStreamToken = token
        let server = try buildApplication(configuration, logger: quietLogger)
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            let anonymous = try EventStreamClient(port: port, path: "/todos/events")
            #expect(try await anonymous.statusLine() == "HTTP/1.1 401 Unauthorized")
            let wrong = try EventStreamClient(port: port, request: """
                GET /todos/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong-token-0123456789\r\n\r\n
                """)
            #expect(try await wrong.statusLine() == "HTTP/1.1 401 Unauthorized")
            #expect(server.eventStreams.count == 0)
            let authorized = try EventStreamClient(port: port, request: """
                GET /todos/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n
                """)
            #expect(try await authorized.statusLine() == "HTTP/1.1 200 OK")
            #expect(try await authorized.nextData() == "[]")
        }
    }

    /// A stream whose client does not read is closed after the write
    /// timeout, and its slot serves the next client.
    @Test func aStalledStreamFreesItsSlotAfterTheWriteTimeout() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = testConfiguration(directory)
        configuration.maximumEventStreams = 1
        configuration.writeTimeout = .milliseconds(300)
        let server = try buildApplication(configuration, logger: quietLogger)
        try await seedLargePage(server.database)
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            let stalled = try StalledClient(port: port, path: "/todos/events?limit=500")
            try await stalled.waitForBytes()
            // New pages fill the connection's buffers until writes wait.
            var round = 0
            while server.eventStreams.count > 0, round < 200 {
                round += 1
                _ = try await client.execute(
                    uri: "/todos/1", method: .patch, headers: jsonHeaders(), body: json(#"{"title": "round \#(round)"}"#))
            }
            #expect(try await waitUntil { server.eventStreams.count == 0 }, "the stalled stream kept its slot")
            let next = try EventStreamClient(port: port, path: "/todos/events?limit=1")
            #expect(try await next.statusLine() == "HTTP/1.1 200 OK")
            withExtendedLifetime(stalled) {}
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
            // Each stream fetches its page again after every change: no deep offsets.
            let deep = try await client.execute(uri: "/todos/events?offset=10001", method: .get)
            #expect(deep.status == .badRequest)
            let listed = try await client.execute(uri: "/todos?offset=10001", method: .get)
            #expect(listed.status == .ok)
        }
    }
}

/// 500 items whose titles use the whole byte limit: a page of about 400 KB.
func seedLargePage(_ database: some DatabaseWriter) async throws {
    try await database.write { db in
        for index in 1...500 {
            let title = String(repeating: "x", count: Todo.maximumTitleBytes - 4) + String(format: "%04d", index)
            _ = try Todo(title: title).inserted(db)
        }
    }
}

/// Waits (at most `seconds`) until `condition` holds.
func waitUntil(seconds: Int = 30, _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}

private func decodeEvent(_ data: String) throws -> [Todo] {
    try JSONDecoder().decode([Todo].self, from: Data(data.utf8))
}
