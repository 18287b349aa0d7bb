import Foundation
import GRDBCipher
import Vapor

/// Configures the application from the process's environment: opens and
/// migrates the encrypted pool, then registers the routes.
///
/// - throws: A ``BootError``; the application must then not start.
public func configure(_ app: Application) async throws {
    try await configure(app, environment: ProcessInfo.processInfo.environment)
}

/// Configures the application from `environment` (a test's, or the process's).
///
/// `VAPORTODO_PASSPHRASE_FILE` names the secret file that holds the
/// passphrase; `VAPORTODO_DATABASE_PATH` the database file (default:
/// `todos.sqlite` in the working directory). The pool is open and migrated
/// before any route exists, and the lifecycle handler closes it at shutdown.
///
/// - throws: A ``BootError``: no passphrase file, an unreadable or empty one,
///   or a database that does not open with the passphrase (`SQLITE_NOTADB`:
///   the file was not modified) or fails to migrate.
public func configure(_ app: Application, environment: [String: String]) async throws {
    let settings = try BootSettings(
        environment: environment, defaultDatabasePath: app.directory.workingDirectory + "todos.sqlite")
    let pool = try TodoDatabase.open(settings)
    app.useGRDB(pool)
    app.logger.info("opened \(settings)")
    try routes(app)
}

/// Registers the application's routes.
func routes(_ app: Application) throws {
    try app.register(collection: TodoController())
}
