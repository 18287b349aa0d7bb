import GRDBCipher
import Vapor

/// The JSON routes on `/todos`. Each handler reaches the database through
/// `req.grdb` with GRDB's async API: the access runs on the pool's
/// connections, never on an event loop.
struct TodoController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let todos = routes.grouped("todos")
        todos.get(use: list)
        todos.post(use: create)
        todos.patch(":id", use: update)
        todos.delete(":id", use: delete)
    }

    /// `GET /todos`: every item, in id order.
    @Sendable func list(req: Request) async throws -> [Todo] {
        try await req.grdb.read { db in
            try Todo.order(Todo.Columns.id).fetchAll(db)
        }
    }

    /// `POST /todos` with `{"title": "…"}`: 201 and the new item, 400 for an
    /// empty title.
    @Sendable func create(req: Request) async throws -> Response {
        let input = try req.content.decode(CreateTodo.self)
        guard !input.title.allSatisfy(\.isWhitespace) else {
            throw Abort(.badRequest, reason: "title must not be empty")
        }
        let todo = try await req.grdb.write { db in
            try Todo(title: input.title).inserted(db)
        }
        let response = try await todo.encodeResponse(status: .created, for: req)
        if let id = todo.id { response.headers.replaceOrAdd(name: .location, value: "/todos/\(id)") }
        return response
    }

    /// `PATCH /todos/:id` with `{"completed": true|false}` sets the flag;
    /// without a body (or without `completed`), toggles it. The updated item,
    /// or 404.
    @Sendable func update(req: Request) async throws -> Todo {
        let id = try todoID(req)
        let input = req.body.data == nil ? UpdateTodo() : try req.content.decode(UpdateTodo.self)
        // Read and write in one transaction: a toggle is not lost to a
        // concurrent one.
        let updated = try await req.grdb.write { db -> Todo? in
            guard var todo = try Todo.fetchOne(db, key: id) else { return nil }
            todo.completed = input.completed ?? !todo.completed
            try todo.update(db)
            return todo
        }
        guard let updated else { throw notFound(id) }
        return updated
    }

    /// `DELETE /todos/:id`: 204, or 404.
    @Sendable func delete(req: Request) async throws -> HTTPStatus {
        let id = try todoID(req)
        let deleted = try await req.grdb.write { db in try Todo.deleteOne(db, key: id) }
        guard deleted else { throw notFound(id) }
        return .noContent
    }

    /// The `:id` of the path: 400 unless it is an integer.
    private func todoID(_ req: Request) throws -> Int64 {
        guard let id = req.parameters.get("id", as: Int64.self) else {
            throw Abort(.badRequest, reason: "the id must be an integer")
        }
        return id
    }

    private func notFound(_ id: Int64) -> Abort {
        Abort(.notFound, reason: "no todo with id \(id)")
    }
}

/// The body of `POST /todos`.
struct CreateTodo: Content {
    var title: String
}

/// The body of `PATCH /todos/:id`; no `completed` toggles the flag.
struct UpdateTodo: Content {
    var completed: Bool?
}
