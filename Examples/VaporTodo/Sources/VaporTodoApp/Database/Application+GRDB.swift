import GRDBCipher
import Vapor

extension Application {
    /// The storage slot of the pool: its type is the value's type, so a
    /// wrong store does not compile.
    struct GRDBPoolKey: StorageKey {
        typealias Value = DatabasePool
    }

    /// The application's encrypted database pool, opened and migrated by
    /// ``configure(_:)``, closed at shutdown.
    ///
    /// Named `grdb`, not `db`: Fluent's `app.db` is a different database API.
    ///
    /// ```swift
    /// let count = try await app.grdb.read { db in try Todo.fetchCount(db) }
    /// ```
    public var grdb: DatabasePool {
        guard let pool = storage[GRDBPoolKey.self] else {
            fatalError("app.grdb used before configure(_:) opened the database")
        }
        return pool
    }

    /// Keeps `pool` in the application's storage and closes it when the
    /// application shuts down.
    func useGRDB(_ pool: DatabasePool) {
        storage[GRDBPoolKey.self] = pool
        lifecycle.use(GRDBLifecycle())
    }
}

extension Request {
    /// The application's database pool; see ``Vapor/Application/grdb``.
    ///
    /// ```swift
    /// let todos = try await req.grdb.read { db in try Todo.fetchAll(db) }
    /// ```
    public var grdb: DatabasePool { application.grdb }
}

/// Closes the pool when the application shuts down.
///
/// Vapor runs the lifecycle handlers' shutdown after the HTTP server has
/// stopped and finished its requests; `close()` then waits for the database
/// accesses that still run, and later accesses throw a `DatabaseError`.
struct GRDBLifecycle: LifecycleHandler {
    func shutdown(_ application: Application) {
        close(application)
    }

    func shutdownAsync(_ application: Application) async {
        close(application)
    }

    private func close(_ application: Application) {
        guard let pool = application.storage[Application.GRDBPoolKey.self] else { return }
        do {
            try pool.close()
            application.logger.info("database closed")
        } catch {
            // Statements made in an access are still alive: a bug of the
            // application. The pool then stays open.
            application.logger.error("cannot close the database: \(error)")
        }
    }
}
