import Foundation
import GRDBCipher

/// The migrations of `migrate`, in order: a schema history written with the
/// schema DSL (tables, a foreign key, an added column, a table recreated
/// while another refers to it, an index). Each process registers the first
/// `--steps` of them, as successive versions of an app would.
let childMigrationSteps: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = [
    ("createAuthor", { db in
        try db.create(table: "author") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text)
        }
        try db.execute(sql: "INSERT INTO author (name) VALUES ('Herman Melville'), ('Jules Verne')")
    }),
    ("createBook", { db in
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("author", onDelete: .cascade).notNull()
            t.column("title", .text).notNull()
        }
        try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (1, 'Moby-Dick'), (2, 'Vingt mille lieues')")
    }),
    ("addAuthorCountry", { db in
        try db.alter(table: "author") { t in t.add(column: "country", .text) }
        try db.execute(sql: "UPDATE author SET country = CASE name WHEN 'Jules Verne' THEN 'FR' ELSE 'US' END")
    }),
    ("requireAuthorName", { db in
        try db.create(table: "new_author") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("country", .text)
        }
        try db.execute(sql: "INSERT INTO new_author (id, name, country) SELECT id, name, country FROM author")
        try db.drop(table: "author")
        try db.rename(table: "new_author", to: "author")
    }),
    ("indexBookTitle", { db in
        try db.create(index: "book_on_title", on: "book", columns: ["title"])
    }),
]

/// Migrates with the first `--steps` migrations of ``childMigrationSteps``:
/// RAN <id> when a migration starts (HOLDING <id> instead for `--hold-in`,
/// which then waits for the end of standard input, to be killed there),
/// then DONE <applied identifiers, comma-separated>.
func migrate(_ options: Options) throws {
    let steps = try options.optionalInteger("steps") ?? childMigrationSteps.count
    guard (1...childMigrationSteps.count).contains(steps) else {
        throw UsageError(description: "--steps is between 1 and \(childMigrationSteps.count)")
    }
    let holdIn = options.optionalString("hold-in")
    var migrator = DatabaseMigrator()
    for step in childMigrationSteps.prefix(steps) {
        let identifier = step.identifier
        let body = step.migrate
        migrator.registerMigration(identifier) { db in
            try body(db)
            if identifier == holdIn {
                // The migration's changes are made but not committed.
                acknowledge("HOLDING \(identifier)")
                _ = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                acknowledge("RAN \(identifier)")
            }
        }
    }
    let dbPool = try DatabasePool(
        path: try options.string("path"), configuration: try options.configuration(passphrase: try options.string("key")))
    try migrator.migrate(dbPool)
    let applied = try dbPool.read { db in try migrator.appliedMigrations(db) }
    try dbPool.close()
    acknowledge("DONE \(applied.joined(separator: ","))")
}
