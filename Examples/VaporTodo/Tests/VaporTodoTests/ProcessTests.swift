import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import VaporTodoApp

/// The executable: it serves on an encrypted database, closes it on SIGTERM,
/// and does not start when the passphrase is missing or wrong.
@Suite struct ProcessTests {
    static let serve = ["serve", "--hostname", "127.0.0.1", "--port", "0"]

    @Test func servesThenClosesTheDatabaseOnSIGTERM() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        let app = try AppProcess(arguments: Self.serve, environment: files.environment)
        let output = try await app.waitForOutput("Server started on ")
        let url = try #require(Self.serverURL(in: output), "no address in the output:\n\(output)")

        var request = URLRequest(url: url.appendingPathComponent("todos"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"title": "From another process"}"#.utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(try JSONDecoder().decode(Todo.self, from: body) == Todo(id: 1, title: "From another process"))

        app.process.terminate()
        let status = try await app.waitForExit()
        #expect(status == 0, "output:\n\(app.text)")
        #expect(app.text.contains("database closed"), "output:\n\(app.text)")
        let todos = try await openQueue(files.databasePath, passphrase: testPassphrase).read { db in try Todo.fetchAll(db) }
        #expect(todos.map(\.title) == ["From another process"])
    }

    @Test func aWrongPassphraseExitsWithStatus3BeforeListening() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try await openQueue(files.databasePath, passphrase: "the passphrase of the file").write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
        }
        let app = try AppProcess(arguments: Self.serve, environment: files.environment)
        let status = try await app.waitForExit()
        #expect(status == 3, "output:\n\(app.text)")
        #expect(app.text.contains("wrong passphrase"), "output:\n\(app.text)")
        #expect(!app.text.contains("Server started"), "output:\n\(app.text)")
    }

    @Test func anEmptyPassphraseFileExitsWithStatus2() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        try files.writePassphrase("")
        let app = try AppProcess(arguments: Self.serve, environment: files.environment)
        let status = try await app.waitForExit()
        #expect(status == 2, "output:\n\(app.text)")
        #expect(app.text.contains("is empty"), "output:\n\(app.text)")
        #expect(!FileManager.default.fileExists(atPath: files.databasePath))
    }

    /// The address of Vapor's "Server started on http://127.0.0.1:PORT" line.
    static func serverURL(in output: String) -> URL? {
        guard let start = output.range(of: "Server started on ") else { return nil }
        // Only the URL's characters: the log line may end with a terminal style code.
        let address = output[start.upperBound...].prefix { $0.isLetter || $0.isNumber || ":/.[]".contains($0) }
        return URL(string: String(address))
    }
}
