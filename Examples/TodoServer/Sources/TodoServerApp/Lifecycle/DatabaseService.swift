import Foundation
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
        // A request the server gave up on may still hold the pool for a moment.
        for attempt in 1...50 {
            do {
                try database.close()
                logger.info("database closed")
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 50 {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }
}

