import GRDBCipher
import Hummingbird
import Logging
import NIOCore

/// The server as the executable and the tests run it: the opened and
/// migrated pool, and the Hummingbird application that serves it.
public struct TodoServer: Sendable {
    /// The encrypted pool (tests read it directly).
    public let database: DatabasePool
    /// The application: run it with `runService()`, or test it.
    public let application: Application<RouterResponder<BasicRequestContext>>
    /// The event streams that run (tests read their counts).
    let eventStreams: StreamSlots
    /// The shared observations of the streamed pages (tests count their fetches).
    let pageObservations: PageObservations
    /// The integrity check of `GET /health?integrity=true` (tests count its runs).
    let integrityChecker: IntegrityChecker
}

/// Opens and migrates the database, then builds the routes and the
/// application; nothing listens until the application runs.
///
/// The application refuses requests for other host names (see
/// ``AllowedHosts``), closes idle connections, requests that take too long
/// to arrive and connections whose client does not read (see
/// ``ConnectionGuard``), and accepts at most
/// ``ServerConfiguration/maximumConnections`` connections at once.
///
/// - throws: ``StartupError`` when the database does not open with the
///   configured key or cannot be migrated.
public func buildApplication(_ configuration: ServerConfiguration, logger: Logger? = nil) throws -> TodoServer {
    let logger = logger ?? Logger(label: "TodoServer")
    let database = try TodoDatabase.open(configuration, logger: logger)
    let encrypted: Bool
    if case .plaintext = configuration.encryption { encrypted = false } else { encrypted = true }
    logger.info("database ready", metadata: ["path": "\(configuration.databasePath)", "encrypted": "\(encrypted)"])
    if ["0.0.0.0", "::"].contains(configuration.host),
       configuration.allowedHosts == AllowedHosts(names: AllowedHosts.loopbackNames)
    {
        logger.warning("""
            listening on \(configuration.host), but only requests for localhost are served: \
            set TODOSERVER_ALLOWED_HOSTS to the names clients use
            """)
    }

    let adminToken = configuration.adminToken.map { AdminToken(value: $0) }
    let integrityChecker = IntegrityChecker(
        database: database, isEncrypted: encrypted, cacheDuration: configuration.integrityCacheDuration)
    let eventStreams = StreamSlots(capacity: configuration.maximumEventStreams)
    let pageObservations = PageObservations(database: database)

    let router = Router()
    // Each request's method and path (never its body) at debug level:
    // `LOG_LEVEL=debug` shows what is in flight.
    router.add(middleware: LogRequestsMiddleware(.debug))
    router.add(middleware: HostCheckMiddleware(allowedHosts: configuration.allowedHosts))
    HealthController(database: database, checker: integrityChecker, adminToken: adminToken)
        .addRoutes(to: router)
    let todos = router.group("todos")
    TodoController(database: database).addRoutes(to: todos)
    TodoSearchController(database: database).addRoutes(to: todos)
    TodoEventsController(
        pages: pageObservations,
        slots: eventStreams,
        token: configuration.eventStreamToken.map { AdminToken(value: $0, purpose: "event stream") },
        heartbeat: configuration.eventHeartbeat,
        logger: logger)
        .addRoutes(to: todos)
    if let adminToken {
        AdminController(
            database: database,
            keyState: KeyState(configuration.encryption),
            adminToken: adminToken,
            backupDirectory: configuration.backupDirectory)
            .addRoutes(to: router)
    }

    let requestTimeout = configuration.requestTimeout
    let writeTimeout = configuration.writeTimeout
    let application = Application(
        router: router,
        server: .http1(configuration: .init(
            additionalChannelHandlers: [ConnectionGuard(requestTimeout: requestTimeout, writeTimeout: writeTimeout)],
            idleTimeout: TimeAmount(configuration.idleTimeout))),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "TodoServer",
            availableConnectionsDelegate: .maximum(configuration.maximumConnections, logger: logger)),
        services: [DatabaseService(
            database: database, replica: configuration.replica, replicaStore: configuration.replicaStore,
            logger: logger)],
        onServerRunning: { [logger] channel in
            if let port = channel.localAddress?.port {
                logger.notice("listening on http://\(configuration.host):\(port)")
            }
        },
        logger: logger)
    return TodoServer(
        database: database, application: application, eventStreams: eventStreams,
        pageObservations: pageObservations, integrityChecker: integrityChecker)
}
