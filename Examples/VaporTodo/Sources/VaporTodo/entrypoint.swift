import Foundation
import Vapor
import VaporTodoApp

// The executable: Vapor's commands (`serve` by default, `--hostname`, `--port`),
// the key from the secret file named by VAPORTODO_PASSPHRASE_FILE, never from argv.
// When the application cannot boot it says why and exits before it listens:
// status 2 for the passphrase file, 3 when the database does not open with the
// passphrase (the file was not modified), 1 for anything else.
@main
enum Entrypoint {
    static func main() async throws {
        var env = try Environment.detect()
        try LoggingSystem.bootstrap(from: &env)
        let app = try await Application.make(env)
        do {
            try await configure(app)
        } catch {
            try? await app.asyncShutdown()
            fail(error)
        }
        do {
            try await app.execute()
        } catch {
            app.logger.report(error: error)
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    static func fail(_ error: any Error) -> Never {
        FileHandle.standardError.write(Data("VaporTodo: \(error)\n".utf8))
        guard let error = error as? BootError else { exit(1) }
        switch error {
        case .database: exit(error.isKeyMistake ? 3 : 1)
        default: exit(2)
        }
    }
}
