import GRDBCipher
import Hummingbird

extension Todo: ResponseCodable {}

/// The JSON CRUD routes on `/todos`.
struct TodoController: Sendable {
    let database: DatabasePool

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: create)
        group.get(":id", use: get)
        group.patch(":id", use: update)
        group.delete(":id", use: delete)
    }

    /// `GET /todos?limit=&offset=&completed=true|false`: a page of to-do
    /// items in id order, as a JSON array.
    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> [Todo] {
        let page = try TodoPage(request.uri.queryParameters)
        return try await database.read { db in try page.request.fetchAll(db) }
    }

    /// `POST /todos` with `{"title": "…"}`: 201 and the new item.
    @Sendable func create(_ request: Request, context: BasicRequestContext) async throws -> EditedResponse<Todo> {
        let input = try await decodeBody(CreateTodo.self, from: request)
        let todo = try await database.write { db in
            try Todo(title: input.title, completed: input.completed).inserted(db)
        }
        var headers = HTTPFields()
        if let id = todo.id { headers[.location] = "/todos/\(id)" }
        return EditedResponse(status: .created, headers: headers, response: todo)
    }

    /// `GET /todos/:id`: the item, or 404.
    @Sendable func get(_ request: Request, context: BasicRequestContext) async throws -> Todo {
        let id = try todoID(context)
        guard let todo = try await database.read({ db in try Todo.fetchOne(db, key: id) }) else {
            throw notFound(id)
        }
        return todo
    }

    /// `PATCH /todos/:id` with `"title"` and/or `"completed"`: the updated
    /// item, or 404.
    @Sendable func update(_ request: Request, context: BasicRequestContext) async throws -> Todo {
        let id = try todoID(context)
        let input = try await decodeBody(UpdateTodo.self, from: request)
        let updated = try await database.write { db -> Todo? in
            guard var todo = try Todo.fetchOne(db, key: id) else { return nil }
            if let title = input.title { todo.title = title }
            if let completed = input.completed { todo.completed = completed }
            try todo.update(db)
            return todo
        }
        guard let updated else { throw notFound(id) }
        return updated
    }

    /// `DELETE /todos/:id`: 204, or 404.
    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> HTTPResponse.Status {
        let id = try todoID(context)
        let deleted = try await database.write { db in try Todo.deleteOne(db, key: id) }
        guard deleted else { throw notFound(id) }
        return .noContent
    }

    /// The `:id` of the path: 400 unless it is an integer.
    private func todoID(_ context: BasicRequestContext) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text) else {
            throw HTTPError(.badRequest, message: "the id must be an integer")
        }
        return id
    }

    private func notFound(_ id: Int64) -> HTTPError {
        HTTPError(.notFound, message: "no todo with id \(id)")
    }
}

/// A query parameter that must be an integer in `range` (400 otherwise).
func integerParameter(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
    guard let text else { return value }
    guard let number = Int(text), range.contains(number) else {
        throw HTTPError(.badRequest, message: "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
    }
    return number
}
