import Foundation
import Testing
@testable import GRDBCipher

/// The statements `DatabaseMigrator.migrate` runs before the first
/// migration, as GRDB runs them: `grdb_migrations` is created if needed,
/// then read twice (once to check the target, once to pick the migrations).
@Suite struct MigratorStatementsTests {
    /// The traced statements of `migrate`, without the schema introspection
    /// that the libraries run on their own.
    private func migrationStatements(_ migrator: DatabaseMigrator, _ dbQueue: DatabaseQueue) throws -> [String] {
        let seen = LockedValue<[String]>([])
        dbQueue.inDatabase { db in db.trace { event in seen.withLock { $0.append(event.description) } } }
        try migrator.migrate(dbQueue)
        dbQueue.inDatabase { db in db.trace(nil) }
        return seen.withLock { $0 }.filter { !isIntrospection($0) }
    }

    /// Reads of the schema, which GRDB and GRDBCipher make differently.
    private func isIntrospection(_ sql: String) -> Bool {
        if sql.contains("sqlite_master") || sql.contains("sqlite_schema") { return true }
        let pragmas = ["schema_version", "database_list", "table_info", "table_xinfo", "table_list",
                       "index_list", "index_info", "index_xinfo", "foreign_key_list"]
        return pragmas.contains { sql.hasPrefix("PRAGMA \($0)") || sql.hasPrefix("PRAGMA main.\($0)") }
    }

    @Test func theMigrationsTableIsReadTwiceBeforeMigrating() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("migrator-passphrase"))
        var migrator = DatabaseMigrator()
        migrator.registerMigration("a") { db in try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)") }
        let first = try migrationStatements(migrator, dbQueue)
        #expect(Array(first.prefix(4)) == [
            "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "SELECT identifier FROM grdb_migrations",
            "SELECT identifier FROM grdb_migrations",
            "PRAGMA foreign_keys",
        ], "\(first)")
        // Nothing to migrate: the same reads, and nothing else.
        let again = try migrationStatements(migrator, dbQueue)
        #expect(again == [
            "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "SELECT identifier FROM grdb_migrations",
            "SELECT identifier FROM grdb_migrations",
        ], "\(again)")
    }
}
