import Foundation
@testable import GRDBCipher

/// The schema a test compares: `type name` of every object of the main
/// schema but SQLite's own, sorted.
func schemaNames(_ db: Database) throws -> [String] {
    try String.fetchAll(db, sql: """
        SELECT type || ' ' || name FROM sqlite_master
        WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name
        """)
}

/// The identifiers in `grdb_migrations`, sorted; empty if the table is missing.
func recordedMigrations(_ db: Database) throws -> [String] {
    guard try db.tableExists("grdb_migrations") else { return [] }
    return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
}

/// Counts the runs of each migration, across threads.
final class MigrationRuns: Sendable {
    private let counts = LockedValue<[String: Int]>([:])

    func record(_ identifier: String) {
        counts.withLock { $0[identifier, default: 0] += 1 }
    }

    func count(_ identifier: String) -> Int {
        counts.withLock { $0[identifier] ?? 0 }
    }

    var all: [String: Int] {
        counts.withLock { $0 }
    }
}

/// An error a test migration throws.
struct MigrationTestError: Error, Equatable {
    var name: String
}

/// The steps of a realistic schema history, each one its own migration:
/// create tables, add a column, recreate a table that other tables refer
/// to (foreign keys), add an index. Used by the five-step and shell tests.
let realisticSteps: [(identifier: String, sql: String)] = [
    ("createAuthor", """
        CREATE TABLE author (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
        INSERT INTO author (name) VALUES ('Herman Melville'), ('Jules Verne');
        """),
    ("createBook", """
        CREATE TABLE book (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          authorId INTEGER NOT NULL REFERENCES author(id) ON DELETE CASCADE,
          title TEXT NOT NULL);
        INSERT INTO book (authorId, title) VALUES (1, 'Moby-Dick'), (2, 'Vingt mille lieues sous les mers');
        """),
    ("addAuthorCountry", """
        ALTER TABLE author ADD COLUMN country TEXT;
        UPDATE author SET country = CASE name WHEN 'Jules Verne' THEN 'FR' ELSE 'US' END;
        """),
    // SQLite's twelve-step table recreation: author gets NOT NULL on name,
    // while book still refers to it.
    ("requireAuthorName", """
        CREATE TABLE new_author (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, country TEXT);
        INSERT INTO new_author (id, name, country) SELECT id, name, country FROM author;
        DROP TABLE author;
        ALTER TABLE new_author RENAME TO author;
        """),
    ("indexBookTitle", "CREATE INDEX book_on_title ON book(title);"),
]

/// A migrator with the first `count` realistic steps, recording their runs.
func realisticMigrator(steps count: Int = realisticSteps.count, runs: MigrationRuns? = nil) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for step in realisticSteps.prefix(count) {
        migrator.registerMigration(step.identifier) { db throws in
            runs?.record(step.identifier)
            try db.execute(sql: step.sql)
        }
    }
    return migrator
}

/// The statements the queue runs while `body` runs, with their arguments
/// written in place.
func expandedStatements(_ dbQueue: DatabaseQueue, during body: () throws -> Void) rethrows -> [String] {
    let statements = LockedValue<[String]>([])
    dbQueue.inDatabase { db in
        db.trace { event in statements.withLock { $0.append(event.expandedDescription) } }
    }
    defer { dbQueue.inDatabase { db in db.trace(nil) } }
    try body()
    return statements.withLock { $0 }
}
