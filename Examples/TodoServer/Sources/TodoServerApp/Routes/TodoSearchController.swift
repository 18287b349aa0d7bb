import GRDBCipher
import Hummingbird

/// `GET /todos/search?q=text`: the items whose title contains `text`
/// (case-insensitively), in id order, at most 500, as a JSON array.
///
/// The search reads every title: on a large table it takes a while. If the
/// client goes away meanwhile, the request stops its database work.
/// Hummingbird's `consumeWithCancellationOnInboundClose` cancels the
/// handler's task when the connection closes, and GRDBCipher turns the
/// cancellation of an async access into `CancellationError`: a read that
/// waits for a reader connection stops waiting, and a running statement is
/// interrupted. Nothing keeps running for nobody. (Hummingbird closes the
/// connection after such a response: the client reconnects for its next
/// request.)
struct TodoSearchController: Sendable {
    let database: DatabasePool
    /// The longest search text accepted, in characters and in bytes of UTF-8.
    static let maximumLength = 200
    static let maximumBytes = 800
    /// The most items a search returns.
    static let maximumCount = 500

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("search", use: search)
    }

    @Sendable func search(_ request: Request, context: BasicRequestContext) async throws -> [Todo] {
        guard let text = request.uri.queryParameters.get("q"), text.utf8.count <= Self.maximumBytes,
              (1...Self.maximumLength).contains(text.count)
        else {
            throw HTTPError(.badRequest, message: "q must be 1 to \(Self.maximumLength) characters, at most \(Self.maximumBytes) bytes")
        }
        let matches = Todo
            .filter(sql: "instr(lower(title), lower(?)) > 0", arguments: [text])
            .order(Todo.Columns.id)
            .limit(Self.maximumCount)
        do {
            return try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await database.read { db in try matches.fetchAll(db) }
            }
        } catch is CancellationError {
            context.logger.info("search cancelled: the client went away")
            throw CancellationError()
        }
    }
}
