import Foundation
import Testing
import Vapor
import VaporTesting
import VaporTodoApp

/// The routes, in memory, on an encrypted database.
@Suite struct RouteTests {
    @Test func postAnswers201WithTheCreatedTodo() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            try await app.testing().test(.POST, "todos", headers: jsonHeaders, body: json(#"{"title": "Buy milk"}"#)) { res async throws in
                #expect(res.status == .created)
                #expect(try res.content.decode(Todo.self) == Todo(id: 1, title: "Buy milk", completed: false))
                #expect(res.headers.first(name: .location) == "/todos/1")
            }
        }
    }

    @Test(arguments: [#"{"title": ""}"#, #"{"title": "   "}"#])
    func postRefusesAnEmptyTitle(body: String) async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            try await app.testing().test(.POST, "todos", headers: jsonHeaders, body: json(body)) { res async throws in
                #expect(res.status == .badRequest, "an empty title is refused: \(res.body.string)")
                #expect(res.body.string.contains("title must not be empty"))
            }
            let count = try await app.grdb.read { db in try Todo.fetchCount(db) }
            #expect(count == 0, "a refused todo is not inserted")
        }
    }

    @Test func postRefusesABodyWithoutTitle() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            try await app.testing().test(.POST, "todos", headers: jsonHeaders, body: json(#"{"name": "x"}"#)) { res async throws in
                #expect(res.status == .badRequest)
            }
        }
    }

    @Test func getListsTheTodosInIDOrder() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            let tester = try app.testing()
            try await tester.test(.GET, "todos") { res async throws in
                #expect(res.status == .ok)
                #expect(try res.content.decode([Todo].self) == [])
            }
            for title in ["first", "second", "third"] {
                try await tester.test(.POST, "todos", headers: jsonHeaders, body: json(#"{"title": "\#(title)"}"#)) { res async throws in
                    #expect(res.status == .created)
                }
            }
            try await tester.test(.GET, "todos") { res async throws in
                #expect(res.status == .ok)
                let todos = try res.content.decode([Todo].self)
                #expect(todos.map(\.id) == [1, 2, 3])
                #expect(todos.map(\.title) == ["first", "second", "third"])
            }
        }
    }

    @Test func patchSetsThenTogglesCompleted() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            let tester = try app.testing()
            try await tester.test(.POST, "todos", headers: jsonHeaders, body: json(#"{"title": "Water the plants"}"#))
            try await tester.test(.PATCH, "todos/1", headers: jsonHeaders, body: json(#"{"completed": true}"#)) { res async throws in
                #expect(res.status == .ok)
                #expect(try res.content.decode(Todo.self).completed == true, "completed is set")
            }
            try await tester.test(.PATCH, "todos/1", headers: jsonHeaders, body: json(#"{"completed": true}"#)) { res async throws in
                #expect(try res.content.decode(Todo.self).completed == true, "setting it again keeps it")
            }
            try await tester.test(.PATCH, "todos/1") { res async throws in
                #expect(res.status == .ok)
                #expect(try res.content.decode(Todo.self).completed == false, "no body toggles it")
            }
            try await tester.test(.PATCH, "todos/1", headers: jsonHeaders, body: json("{}")) { res async throws in
                #expect(try res.content.decode(Todo.self).completed == true, "no completed toggles it")
            }
            let stored = try await app.grdb.read { db in try Todo.fetchOne(db, key: 1) }
            #expect(stored == Todo(id: 1, title: "Water the plants", completed: true))
        }
    }

    @Test func patchAnswers404ForAMissingTodo() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            try await app.testing().test(.PATCH, "todos/42", headers: jsonHeaders, body: json(#"{"completed": true}"#)) { res async throws in
                #expect(res.status == .notFound)
                #expect(res.body.string.contains("no todo with id 42"))
            }
        }
    }

    @Test func deleteRemovesTheTodoThenAnswers404() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            let tester = try app.testing()
            for title in ["keep", "remove"] {
                try await tester.test(.POST, "todos", headers: jsonHeaders, body: json(#"{"title": "\#(title)"}"#))
            }
            try await tester.test(.DELETE, "todos/2") { res async throws in
                #expect(res.status == .noContent)
            }
            try await tester.test(.DELETE, "todos/2") { res async throws in
                #expect(res.status == .notFound, "a deleted todo is gone")
            }
            try await tester.test(.GET, "todos") { res async throws in
                #expect(try res.content.decode([Todo].self).map(\.title) == ["keep"])
            }
        }
    }

    @Test func anIDThatIsNotAnIntegerIsRefused() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await withTodoApp(files) { app in
            try await app.testing().test(.DELETE, "todos/abc") { res async throws in
                #expect(res.status == .badRequest)
            }
        }
    }
}
