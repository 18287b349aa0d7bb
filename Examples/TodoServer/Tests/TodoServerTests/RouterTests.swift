import Foundation
import GRDBCipher
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServerApp

/// The CRUD routes, driven through the router (no socket).
@Suite struct RouterTests {
    @Test func createGetUpdateDelete() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            let created = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "Buy milk"}"#))
            #expect(created.status == .created)
            let todo = try decode(Todo.self, created)
            #expect(todo.title == "Buy milk")
            #expect(todo.completed == false)
            let id = try #require(todo.id)
            #expect(created.headers[.location] == "/todos/\(id)")
            // The exact JSON keys of the contract.
            let object = try #require(JSONSerialization.jsonObject(with: Data(created.body.readableBytesView)) as? [String: Any])
            #expect(Set(object.keys) == ["id", "title", "completed"])

            let fetched = try await client.execute(uri: "/todos/\(id)", method: .get)
            #expect(fetched.status == .ok)
            #expect(try decode(Todo.self, fetched) == todo)

            let patched = try await client.execute(
                uri: "/todos/\(id)", method: .patch, headers: jsonHeaders(), body: json(#"{"completed": true}"#))
            #expect(patched.status == .ok)
            #expect(try decode(Todo.self, patched) == Todo(id: id, title: "Buy milk", completed: true))

            let renamed = try await client.execute(
                uri: "/todos/\(id)", method: .patch, headers: jsonHeaders(), body: json(#"{"title": "Buy oat milk"}"#))
            #expect(try decode(Todo.self, renamed) == Todo(id: id, title: "Buy oat milk", completed: true))

            let deleted = try await client.execute(uri: "/todos/\(id)", method: .delete)
            #expect(deleted.status == .noContent)
            let gone = try await client.execute(uri: "/todos/\(id)", method: .get)
            #expect(gone.status == .notFound)
            let deletedAgain = try await client.execute(uri: "/todos/\(id)", method: .delete)
            #expect(deletedAgain.status == .notFound)
        }
        // The rows are in the encrypted file.
        let queue = try openQueue(directory.file("todos.sqlite"), passphrase: testPassphrase)
        #expect(try await queue.read { db in try Todo.fetchCount(db) } == 0)
        #expect(try DatabaseFile.isEncrypted(atPath: directory.file("todos.sqlite")))
    }

    @Test func missingIDs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            for (method, body) in [(HTTPRequest.Method.get, nil), (.patch, json(#"{"completed": true}"#)), (.delete, nil)] {
                let response = try await client.execute(uri: "/todos/42", method: method, headers: jsonHeaders(), body: body)
                #expect(response.status == .notFound, "\(method)")
                #expect(try decode(ErrorBody.self, response).error.message == "no todo with id 42")
            }
        }
    }

    @Test(arguments: ["abc", "1.5", "99999999999999999999", "%20", "0x10"])
    func nonIntegerIDsAreBadRequests(id: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            for method in [HTTPRequest.Method.get, .patch, .delete] {
                let response = try await client.execute(
                    uri: "/todos/\(id)", method: method, headers: jsonHeaders(), body: json(#"{"completed": true}"#))
                #expect(response.status == .badRequest, "\(method) \(id)")
            }
        }
    }

    @Test(arguments: [
        ("", "the body must be a JSON object"),
        ("not json", "the body must be a JSON object"),
        (#"["Buy milk"]"#, "wrong type for the body"),
        (#"{}"#, #"missing field "title""#),
        (#"{"title": ""}"#, "title must not be empty"),
        (#"{"title": "   "}"#, "title must not be empty"),
        (#"{"title": 12}"#, #"wrong type for "title""#),
        (#"{"title": null}"#, #"null is not accepted for "title""#),
        (#"{"title": "ok", "completed": "yes"}"#, #"wrong type for "completed""#),
        (#"{"title": "ok", "completed": 1}"#, #"wrong type for "completed""#),
        (#"{"title": "ok", "priority": 3}"#, #"unknown field "priority""#),
        (#"{"title": "ok""#, "the body must be a JSON object"),
    ])
    func malformedCreateBodies(body: String, message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            let response = try await client.execute(uri: "/todos", method: .post, headers: jsonHeaders(), body: json(body))
            #expect(response.status == .badRequest)
            #expect(try decode(ErrorBody.self, response).error.message == message)
        }
        let queue = try openQueue(directory.file("todos.sqlite"), passphrase: testPassphrase)
        #expect(try await queue.read { db in try Todo.fetchCount(db) } == 0)
    }

    @Test func titleLengthLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            let longest = String(repeating: "é", count: Todo.maximumTitleLength)
            let accepted = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "\#(longest)"}"#))
            #expect(accepted.status == .created)
            let tooLong = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "\#(longest)x"}"#))
            #expect(tooLong.status == .badRequest)
            let patch = try await client.execute(
                uri: "/todos/1", method: .patch, headers: jsonHeaders(), body: json(#"{"title": "\#(longest)x"}"#))
            #expect(patch.status == .badRequest)
            let huge = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(),
                body: json(#"{"title": "\#(String(repeating: "x", count: 100_000))"}"#))
            #expect(huge.status == .contentTooLarge)
        }
    }

    /// One character may carry thousands of combining marks: titles are
    /// capped in bytes too.
    @Test func titleByteLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        let oneHeavyCharacter = "e" + String(repeating: "\u{0301}", count: 5000)
        #expect(oneHeavyCharacter.count == 1)
        let fourByteCharacters = String(repeating: "😀", count: Todo.maximumTitleBytes / 4)
        #expect(fourByteCharacters.utf8.count == Todo.maximumTitleBytes)
        try await server.application.test(.router) { client in
            let heavy = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "\#(oneHeavyCharacter)"}"#))
            #expect(heavy.status == .badRequest)
            #expect(try decode(ErrorBody.self, heavy).error.message == "title must have at most \(Todo.maximumTitleBytes) bytes in UTF-8")
            let atTheLimit = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "\#(fourByteCharacters)"}"#))
            #expect(atTheLimit.status == .created)
            let patched = try await client.execute(
                uri: "/todos/1", method: .patch, headers: jsonHeaders(), body: json(#"{"title": "\#(fourByteCharacters)😀"}"#))
            #expect(patched.status == .badRequest)
            let query = try #require(oneHeavyCharacter.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let search = try await client.execute(uri: "/todos/search?q=\(query)", method: .get)
            #expect(search.status == .badRequest)
        }
        let queue = try openQueue(directory.file("todos.sqlite"), passphrase: testPassphrase)
        #expect(try await queue.read { db in try String.fetchAll(db, sql: "SELECT title FROM todo") } == [fourByteCharacters])
    }

    /// A page of another site can make a browser post `text/plain` or a form
    /// to any server without asking it: bodies must be declared JSON.
    @Test func bodiesMustBeDeclaredJSON() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory, adminToken: testAdminToken), logger: quietLogger)
        try await server.application.test(.router) { client in
            let created = try await client.execute(
                uri: "/todos", method: .post, headers: [.contentType: "application/json; charset=utf-8"],
                body: json(#"{"title": "declared"}"#))
            #expect(created.status == .created)
            let others: [HTTPFields] = [
                [:], [.contentType: "text/plain"], [.contentType: "application/x-www-form-urlencoded"],
                [.contentType: "multipart/form-data; boundary=x"], [.contentType: "application/jsonp"],
            ]
            for headers in others {
                let post = try await client.execute(
                    uri: "/todos", method: .post, headers: headers, body: json(#"{"title": "cross-site"}"#))
                #expect(post.status == .unsupportedMediaType, "\(headers)")
                let patch = try await client.execute(
                    uri: "/todos/1", method: .patch, headers: headers, body: json(#"{"completed": true}"#))
                #expect(patch.status == .unsupportedMediaType, "\(headers)")
                var adminHeaders = headers
                adminHeaders[.authorization] = "Bearer \(testAdminToken)"
                let rotate = try await client.execute(
                    uri: "/admin/rotate-key", method: .post, headers: adminHeaders,
                    body: json(#"{"newPassphrase": "another passphrase"}"#))
                #expect(rotate.status == .unsupportedMediaType, "\(headers)")
            }
        }
        let queue = try openQueue(directory.file("todos.sqlite"), passphrase: testPassphrase)
        #expect(try await queue.read { db in try Todo.fetchAll(db) } == [Todo(id: 1, title: "declared")])
    }

    @Test(arguments: [#"{}"#, #"{"done": true}"#, #"{"completed": null}"#, "[]", "nope"])
    func malformedPatchBodies(body: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            _ = try await client.execute(uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "a"}"#))
            let response = try await client.execute(uri: "/todos/1", method: .patch, headers: jsonHeaders(), body: json(body))
            #expect(response.status == .badRequest)
            let unchanged = try await client.execute(uri: "/todos/1", method: .get)
            #expect(try decode(Todo.self, unchanged) == Todo(id: 1, title: "a", completed: false))
        }
    }

    @Test func listPagingAndFilter() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            for index in 1...7 {
                let completed = index % 3 == 0
                _ = try await client.execute(
                    uri: "/todos", method: .post, headers: jsonHeaders(),
                    body: json(#"{"title": "task \#(index)", "completed": \#(completed)}"#))
            }
            let all = try decode([Todo].self, try await client.execute(uri: "/todos", method: .get))
            #expect(all.map(\.id) == [1, 2, 3, 4, 5, 6, 7])
            let page = try decode([Todo].self, try await client.execute(uri: "/todos?limit=2&offset=3", method: .get))
            #expect(page.map(\.title) == ["task 4", "task 5"])
            let done = try decode([Todo].self, try await client.execute(uri: "/todos?completed=true", method: .get))
            #expect(done.map(\.id) == [3, 6])
            let open = try decode([Todo].self, try await client.execute(uri: "/todos?completed=false&limit=3&offset=1", method: .get))
            #expect(open.map(\.id) == [2, 4, 5])
            let pastEnd = try decode([Todo].self, try await client.execute(uri: "/todos?offset=100", method: .get))
            #expect(pastEnd.isEmpty)
        }
    }

    @Test(arguments: [
        "limit=0", "limit=-1", "limit=501", "limit=ten", "limit=", "offset=-1", "offset=1000001", "offset=1.5",
        "completed=yes", "completed=1", "completed=",
    ])
    func badListQueries(query: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            let response = try await client.execute(uri: "/todos?\(query)", method: .get)
            #expect(response.status == .badRequest)
            #expect(try !decode(ErrorBody.self, response).error.message.isEmpty)
        }
    }

    @Test func health() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory, adminToken: testAdminToken), logger: quietLogger)
        try await server.application.test(.router) { client in
            let plain = try await client.execute(uri: "/health", method: .get)
            #expect(plain.status == .ok)
            #expect(String(buffer: plain.body) == #"{"status":"ok"}"#)
            let checked = try await client.execute(uri: "/health?integrity=true", method: .get, headers: jsonHeaders(token: testAdminToken))
            #expect(checked.status == .ok)
            let answer = try #require(JSONSerialization.jsonObject(with: Data(checked.body.readableBytesView)) as? [String: String])
            #expect(answer["status"] == "ok")
            #expect(answer["integrity"] == "intact")
            #expect(answer["checkedAt"].flatMap(ISO8601DateFormatter().date(from:)) != nil)
            let bad = try await client.execute(uri: "/health?integrity=maybe", method: .get)
            #expect(bad.status == .badRequest)
        }
    }

    /// The integrity check reads the whole file: it needs the admin token,
    /// and does not exist without one.
    @Test func theIntegrityCheckNeedsTheAdminToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory, adminToken: testAdminToken), logger: quietLogger)
        try await server.application.test(.router) { client in
            for token in [nil, "wrong", testAdminToken + "x"] {
                let refused = try await client.execute(uri: "/health?integrity=true", method: .get, headers: jsonHeaders(token: token))
                #expect(refused.status == .unauthorized, "\(token ?? "no token")")
            }
        }
        #expect(server.integrityChecker.runCount == 0)

        let other = try TemporaryDirectory()
        defer { other.remove() }
        let withoutToken = try buildApplication(testConfiguration(other), logger: quietLogger)
        try await withoutToken.application.test(.router) { client in
            let refused = try await client.execute(uri: "/health?integrity=true", method: .get, headers: jsonHeaders(token: testAdminToken))
            #expect(refused.status == .forbidden)
            #expect(try decode(ErrorBody.self, refused).error.message.contains("TODOSERVER_ADMIN_TOKEN"))
        }
        #expect(withoutToken.integrityChecker.runCount == 0)
    }

    /// A verdict is reused for the cache period: a client that loops on the
    /// route reads the file once.
    @Test(arguments: [(Duration.seconds(3600), 1), (.zero, 3)])
    func integrityVerdictsAreCached(period: Duration, runs: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = testConfiguration(directory, adminToken: testAdminToken)
        configuration.integrityCacheDuration = period
        let server = try buildApplication(configuration, logger: quietLogger)
        try await server.application.test(.router) { client in
            for _ in 1...3 {
                let checked = try await client.execute(uri: "/health?integrity=true", method: .get, headers: jsonHeaders(token: testAdminToken))
                #expect(checked.status == .ok)
            }
        }
        #expect(server.integrityChecker.runCount == runs)
    }

    @Test func plaintextHealthSaysNotEncrypted() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(
            testConfiguration(directory, encryption: .plaintext, adminToken: testAdminToken), logger: quietLogger)
        try await server.application.test(.router) { client in
            let checked = try await client.execute(uri: "/health?integrity=true", method: .get, headers: jsonHeaders(token: testAdminToken))
            #expect(checked.status == .ok)
            #expect(String(buffer: checked.body).contains(#""integrity":"not encrypted""#))
        }
        #expect(try !DatabaseFile.isEncrypted(atPath: directory.file("todos.sqlite")))
    }

    @Test func shutdownClosesThePool() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
        }
        // The test framework shut the services down: the pool is closed.
        #expect(throws: DatabaseError.self) {
            try server.database.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
    }
}
