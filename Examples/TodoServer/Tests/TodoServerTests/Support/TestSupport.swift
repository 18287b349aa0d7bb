import Foundation
import GRDBCipher
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import TodoServerApp

/// A folder of its own under the system's temporary folder, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "todoserver-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

let testPassphrase = "test passphrase for the todo server"
let testAdminToken = "admin-token-0123456789abcdef"

/// A configuration on an encrypted database in `directory`, listening on a free port.
func testConfiguration(
    _ directory: TemporaryDirectory,
    encryption: ServerConfiguration.Encryption = .passphrase(testPassphrase),
    adminToken: String? = nil) -> ServerConfiguration
{
    ServerConfiguration(
        databasePath: directory.file("todos.sqlite"),
        encryption: encryption,
        port: 0,
        adminToken: adminToken)
}

/// A logger that stays quiet unless a test fails loudly.
var quietLogger: Logger {
    var logger = Logger(label: "TodoServerTests")
    logger.logLevel = .warning
    return logger
}

/// A JSON body.
func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

/// The headers of a JSON request, optionally with the admin token.
func jsonHeaders(token: String? = nil) -> HTTPFields {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let token { headers[.authorization] = "Bearer \(token)" }
    return headers
}

/// Decodes a response body.
func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(response.body.readableBytesView))
}

/// The `{"error": {"message": …}}` body Hummingbird gives an HTTPError.
struct ErrorBody: Decodable {
    struct Message: Decodable { var message: String }
    var error: Message
}

/// Opens `path` with `passphrase` in a queue of its own, or throws.
func openQueue(_ path: String, passphrase: String) throws -> DatabaseQueue {
    var config = Configuration()
    config.passphrase = passphrase
    return try DatabaseQueue(path: path, configuration: config)
}
