import GRDBCipher
import Logging
import ServiceLifecycle

/// Keeps the pool open while the server runs and closes it at shutdown.
///
/// The application's service group stops its services in reverse order: the
/// HTTP server first (it stops accepting connections and finishes the
/// requests in flight), then this service, which closes the pool once no
/// request can use it.
/// With a replica, it replicates the pool while the server runs, and stops
/// the replicator (after a last shipment) before it closes the pool.
struct DatabaseService: Service {
    let database: DatabasePool
    let replica: String?
    let key: DatabaseKey?
    let logger: Logger

    func run() async throws {
        var replicator: DatabaseReplicator?
        if let replica, let key {
            let store = try FolderReplicaStore(path: String(replica.dropFirst("file://".count)))
            replicator = try await DatabaseReplicator.start(database, to: store, key: key)
            logger.notice("replicating", metadata: ["replica": "\(replica)"])
        }
        // Waits for SIGTERM/SIGINT (or the end of the group).
        try? await gracefulShutdown()
        if let replicator {
            await replicator.stop()
            logger.info("replication stopped", metadata: ["lastError": "\(replicator.status.lastError ?? "none")"])
        }
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
