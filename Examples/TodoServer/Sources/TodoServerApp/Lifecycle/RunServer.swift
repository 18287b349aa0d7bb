import Logging
import ServiceLifecycle

extension TodoServer {
    /// Runs the server until SIGTERM or SIGINT, then shuts it down
    /// gracefully: no new connection, the requests in flight finish, event
    /// streams end, then the pool closes.
    ///
    /// The graceful shutdown has `shutdownTimeout`: after it, what still
    /// runs is cancelled (requests whose database access waits stop waiting),
    /// and if cancellation itself has not ended everything 5 seconds later,
    /// the process stops with a fatal error. Either way nothing acknowledged
    /// is lost: each acknowledged write was committed to the WAL.
    ///
    /// - throws: The error of a service that failed.
    public func run(shutdownTimeout: Duration, logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownTimeout
        configuration.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: configuration).run()
    }
}
