import GRDBCipher
import Hummingbird
import Logging

/// The server as the executable and the tests run it: the opened and
/// migrated pool, and the Hummingbird application that serves it.
public struct TodoServer: Sendable {
    /// The encrypted pool (tests read it directly).
    public let database: DatabasePool
    /// The application: run it with `runService()`, or test it.
    public let application: Application<RouterResponder<BasicRequestContext>>
}

/// Opens and migrates the database, then builds the routes and the
/// application; nothing listens until the application runs.
///
/// - throws: ``StartupError`` when the database does not open with the
///   configured key or cannot be migrated.
public func buildApplication(_ configuration: ServerConfiguration, logger: Logger? = nil) throws -> TodoServer {
    let logger = logger ?? Logger(label: "TodoServer")
    let database = try TodoDatabase.open(configuration)
    let encrypted: Bool
    if case .passphrase = configuration.encryption { encrypted = true } else { encrypted = false }
    logger.info("database ready", metadata: ["path": "\(configuration.databasePath)", "encrypted": "\(encrypted)"])

    let router = Router()
    // Each request's method and path (never its body) at debug level:
    // `LOG_LEVEL=debug` shows what is in flight.
    router.add(middleware: LogRequestsMiddleware(.debug))
    HealthController(database: database, checker: IntegrityChecker(database: database, isEncrypted: encrypted))
        .addRoutes(to: router)
    let todos = router.group("todos")
    TodoController(database: database).addRoutes(to: todos)
    TodoSearchController(database: database).addRoutes(to: todos)
    TodoEventsController(
        database: database,
        slots: StreamSlots(capacity: configuration.maximumEventStreams),
        heartbeat: configuration.eventHeartbeat,
        logger: logger)
        .addRoutes(to: todos)
    if let token = configuration.adminToken {
        AdminController(
            database: database,
            keyState: KeyState(configuration.encryption),
            adminToken: token,
            backupDirectory: configuration.backupDirectory)
            .addRoutes(to: router)
    }

    let application = Application(
        router: router,
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "TodoServer"),
        services: [DatabaseService(database: database, logger: logger)],
        onServerRunning: { [logger] channel in
            if let port = channel.localAddress?.port {
                logger.notice("listening on http://\(configuration.host):\(port)")
            }
        },
        logger: logger)
    return TodoServer(database: database, application: application)
}
