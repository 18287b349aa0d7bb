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
/// the replicator (after a last shipment) before it closes the pool. A store
/// that does not answer at start does not stop the server: the replicator
/// is started again every few seconds, and its first generation then holds
/// a snapshot of everything committed meanwhile.
struct DatabaseService: Service {
    let database: DatabasePool
    let replica: String?
    let replicaStore: (any ReplicaStore)?
    let logger: Logger
    /// How long to wait before starting the replicator again.
    var retryInterval: Duration = .seconds(5)

    func run() async throws {
        let starting = replicaStore.map { store in
            Task { [database, replica, logger, retryInterval] () -> DatabaseReplicator? in
                while !Task.isCancelled {
                    do {
                        // The replicator uses the pool's own key (a passphrase's, or the envelope's data key).
                        let replicator = try await DatabaseReplicator.start(database, to: store)
                        logger.notice("replicating", metadata: ["replica": "\(replica ?? "")"])
                        return replicator
                    } catch {
                        logger.error("cannot start replicating, trying again", metadata: ["replica": "\(replica ?? "")", "error": "\(error)"])
                        try? await Task.sleep(for: retryInterval)
                    }
                }
                return nil
            }
        }
        // Waits for SIGTERM/SIGINT (or the end of the group).
        try? await gracefulShutdown()
        starting?.cancel()
        if let replicator = await starting?.value {
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
