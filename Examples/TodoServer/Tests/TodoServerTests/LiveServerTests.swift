import Foundation
import GRDBCipher
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServerApp

/// The server on a real socket, on a port the system picked.
@Suite struct LiveServerTests {
    @Test func crudOverTheSocket() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.live) { client in
            let port = try #require(client.port)
            #expect(port != 0 && port != 8080)
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            let created = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "over TCP"}"#))
            #expect(created.status == .created)
            let id = try #require(try decode(Todo.self, created).id)
            let bad = try await client.execute(uri: "/todos", method: .post, headers: jsonHeaders(), body: json("{"))
            #expect(bad.status == .badRequest)
            let patched = try await client.execute(
                uri: "/todos/\(id)", method: .patch, headers: jsonHeaders(), body: json(#"{"completed": true}"#))
            #expect(try decode(Todo.self, patched).completed)
            let done = try decode([Todo].self, try await client.execute(uri: "/todos?completed=true", method: .get))
            #expect(done == [Todo(id: id, title: "over TCP", completed: true)])
            #expect(try await client.execute(uri: "/todos/x", method: .get).status == .badRequest)
            #expect(try await client.execute(uri: "/nowhere", method: .get).status == .notFound)
        }
        let queue = try openQueue(directory.file("todos.sqlite"), passphrase: testPassphrase)
        #expect(try await queue.read { db in try Todo.fetchAll(db) } == [Todo(id: 1, title: "over TCP", completed: true)])
    }
}
