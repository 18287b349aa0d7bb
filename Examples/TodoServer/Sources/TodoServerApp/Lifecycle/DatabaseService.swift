import GRDBCipher
import Logging
import ServiceLifecycle

/// Keeps the pool open while the server runs and closes it at shutdown.
///
/// The application's service group stops its services in reverse order: the
/// HTTP server first (it stops accepting connections and finishes the
/// requests in flight), then this service, which closes the pool once no
/// request can use it.
struct DatabaseService: Service {
    let database: DatabasePool
    let logger: Logger

    func run() async throws {
        // Waits for SIGTERM/SIGINT (or the end of the group).
        try? await gracefulShutdown()
        try close()
    }

    private func close() throws {
        // The pool waits for the accesses that still run. It fails only if
        // statements made in a write are still alive (a bug of this server).
        do {
            try database.close()
            logger.info("database closed")
        } catch {
            logger.error("cannot close the database", metadata: ["error": "\(error)"])
            throw error
        }
    }
}
