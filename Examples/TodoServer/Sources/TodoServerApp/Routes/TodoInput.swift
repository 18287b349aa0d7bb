import Foundation
import Hummingbird

/// Any JSON object key, to find the keys a body should not have.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Refuses the keys of a JSON object that are not in `allowed`.
func rejectUnknownKeys(_ decoder: any Decoder, allowed: Set<String>) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
        throw InputError("unknown field \"\(unknown)\"")
    }
}

/// Checks a title: not only white space, at most the maximum length in
/// bytes and in characters.
func validatedTitle(_ title: String) throws -> String {
    if title.utf8.count > Todo.maximumTitleBytes {
        throw InputError("title must have at most \(Todo.maximumTitleBytes) bytes in UTF-8")
    }
    if title.allSatisfy(\.isWhitespace) {
        throw InputError("title must not be empty")
    }
    if title.count > Todo.maximumTitleLength {
        throw InputError("title must have at most \(Todo.maximumTitleLength) characters")
    }
    return title
}

/// A request that is not valid: answered with 400 and the message.
struct InputError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The body of `POST /todos`: `{"title": "…"}`, and optionally `"completed"`.
struct CreateTodo: Decodable {
    var title: String
    var completed: Bool

    enum CodingKeys: String, CodingKey { case title, completed }

    init(from decoder: any Decoder) throws {
        try rejectUnknownKeys(decoder, allowed: ["title", "completed"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try validatedTitle(container.decode(String.self, forKey: .title))
        completed = try container.decodeIfPresent(Bool.self, forKey: .completed) ?? false
    }
}

/// The body of `PATCH /todos/:id`: `"title"`, `"completed"`, or both.
struct UpdateTodo: Decodable {
    var title: String?
    var completed: Bool?

    enum CodingKeys: String, CodingKey { case title, completed }

    init(from decoder: any Decoder) throws {
        try rejectUnknownKeys(decoder, allowed: ["title", "completed"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title).map(validatedTitle)
        completed = try container.decodeIfPresent(Bool.self, forKey: .completed)
        if title == nil, completed == nil {
            throw InputError("expected \"title\" or \"completed\"")
        }
    }
}

/// Reads a JSON body of at most `limit` bytes as `T`.
///
/// The body must say it is JSON (`Content-Type: application/json`): a page
/// of another site can make a browser send a `text/plain` or form body to
/// any server without asking it first, but not a JSON one.
///
/// - throws: `HTTPError` 415 for a body that is not declared JSON, 400
///   with a JSON message for a body that is not the expected JSON object,
///   413 for a body that is too long.
func decodeBody<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 16 * 1024) async throws -> T {
    guard isJSON(request.headers[.contentType]) else {
        throw HTTPError(.unsupportedMediaType, message: "the body must be JSON, sent with Content-Type: application/json")
    }
    let buffer = try await request.body.collect(upTo: limit)
    let data = Data(buffer.readableBytesView)
    do {
        return try JSONDecoder().decode(T.self, from: data)
    } catch let error as InputError {
        throw HTTPError(.badRequest, message: error.message)
    } catch let DecodingError.keyNotFound(key, _) {
        throw HTTPError(.badRequest, message: "missing field \"\(key.stringValue)\"")
    } catch let DecodingError.typeMismatch(_, context) {
        throw HTTPError(.badRequest, message: "wrong type for \(fieldName(context))")
    } catch let DecodingError.valueNotFound(_, context) {
        throw HTTPError(.badRequest, message: "null is not accepted for \(fieldName(context))")
    } catch {
        throw HTTPError(.badRequest, message: "the body must be a JSON object")
    }
}

/// Whether a `Content-Type` value is `application/json` (parameters such
/// as `; charset=utf-8` aside).
func isJSON(_ contentType: String?) -> Bool {
    guard let contentType else { return false }
    let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
}

private func fieldName(_ context: DecodingError.Context) -> String {
    context.codingPath.last.map { "\"\($0.stringValue)\"" } ?? "the body"
}
