import GRDBCipher
import Hummingbird

/// The page of to-do items that `GET /todos` returns and `GET /todos/events`
/// streams: `limit`, `offset` and `completed` query parameters, in id order.
struct TodoPage: Sendable, Hashable {
    /// The default and largest page sizes.
    static let defaultLimit = 50
    static let maximumLimit = 500
    /// The largest `offset` accepted (deep offsets scan that many rows).
    static let maximumOffset = 1_000_000
    /// The largest `offset` of an event stream: each stream fetches its page
    /// again after every commit that changes the list, so a deep offset
    /// would scan that many rows per stream and per write.
    static let maximumStreamOffset = 10_000

    let limit: Int
    let offset: Int
    /// Only the completed (true) or open (false) items, or all (nil).
    let completed: Bool?

    /// Reads the query parameters.
    ///
    /// - throws: An `HTTPError` (400) for a malformed or out-of-range value.
    init(_ query: Parameters, maximumOffset: Int = Self.maximumOffset) throws {
        limit = try integerParameter(query.get("limit"), name: "limit", default: Self.defaultLimit, range: 1...Self.maximumLimit)
        offset = try integerParameter(query.get("offset"), name: "offset", default: 0, range: 0...maximumOffset)
        switch query.get("completed") {
        case nil: completed = nil
        case "true": completed = true
        case "false": completed = false
        default: throw HTTPError(.badRequest, message: "completed must be true or false")
        }
    }

    /// The query-interface request of the page.
    var request: QueryInterfaceRequest<Todo> {
        var request = Todo.all()
        if let completed {
            request = request.filter(Todo.Columns.completed == completed)
        }
        return request.order(Todo.Columns.id).limit(limit, offset: offset)
    }
}
