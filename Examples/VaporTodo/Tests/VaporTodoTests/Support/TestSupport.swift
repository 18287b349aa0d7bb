import Foundation
import GRDBCipher
import Vapor
import VaporTesting
import VaporTodoApp

/// A folder of its own under the system's temporary folder, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "vaportodo-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

let testPassphrase = "test passphrase for the vapor todo example"

/// The database file and the passphrase file of a test, in its own folder.
struct TestFiles {
    let directory: TemporaryDirectory
    var databasePath: String { directory.file("todos.sqlite") }
    var passphrasePath: String { directory.file("passphrase") }

    /// A folder with a passphrase file holding `passphrase` and a final line
    /// break, as `echo` writes it, readable by its owner only.
    init(passphrase: String = testPassphrase) throws {
        directory = try TemporaryDirectory()
        try writePassphrase(passphrase + "\n")
    }

    /// Replaces the passphrase file's content with exactly `content`.
    func writePassphrase(_ content: String) throws {
        try Data(content.utf8).write(to: URL(fileURLWithPath: passphrasePath))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphrasePath)
    }

    /// The environment the application boots with.
    var environment: [String: String] {
        [
            BootSettings.databasePathVariable: databasePath,
            BootSettings.passphraseFileVariable: passphrasePath,
        ]
    }

    func remove() { directory.remove() }
}

/// Boots the application on `files` (the pool open and migrated, the routes
/// registered), runs `test`, then shuts the application down, which closes the pool.
@discardableResult
func withTodoApp<T>(_ files: TestFiles, _ test: (Application) async throws -> T) async throws -> T {
    try await withApp(configure: { app in
        app.logger.logLevel = .warning
        try await configure(app, environment: files.environment)
    }, test)
}

/// A JSON body.
func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

/// The headers of a JSON request.
let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]

/// The first 16 bytes of every plaintext SQLite database.
let sqliteHeader = Array("SQLite format 3\0".utf8)

/// The first `count` bytes of the file at `path`.
func firstBytes(of path: String, count: Int) throws -> [UInt8] {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    return Array(try handle.read(upToCount: count) ?? Data())
}

/// Opens `path` with `passphrase` in a queue of its own, or throws.
func openQueue(_ path: String, passphrase: String) throws -> DatabaseQueue {
    var config = GRDBCipher.Configuration()
    config.passphrase = passphrase
    return try DatabaseQueue(path: path, configuration: config)
}
