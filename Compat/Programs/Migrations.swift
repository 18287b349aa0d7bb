#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// Prints the schema as sqlite_master stores it, and the migrations table.
func printSchema(_ db: Database) {
    quietly {
        step("sqlite_master") {
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
                .map { "\n  \($0["type"] as String) \($0["name"] as String) on \($0["tbl_name"] as String): \($0["sql"] as String? ?? "NULL")" }
                .joined()
        }
        step("grdb_migrations") {
            try db.tableExists("grdb_migrations") ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") : []
        }
    }
}

let migrationPrograms: [Program] = [
    Program("migrations-basics") {
        let dbQueue = try makeQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createTeam") { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
            }
        }
        migrator.registerMigration("createPlayer") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().indexed().defaults(to: 0)
                t.column("createdAt", .datetime).notNull()
            }
        }
        step("registered") { migrator.migrations }
        step("migrate upTo") { try migrator.migrate(dbQueue, upTo: "createTeam") }
        try dbQueue.read { db in
            step("applied") { try migrator.appliedMigrations(db) }
            step("applied identifiers") { try migrator.appliedIdentifiers(db).sorted() }
            step("completed") { try migrator.completedMigrations(db) }
            step("hasCompleted") { try migrator.hasCompletedMigrations(db) }
            step("hasBeenSuperseded") { try migrator.hasBeenSuperseded(db) }
        }
        step("migrate") { try migrator.migrate(dbQueue) }
        step("migrate again") { try migrator.migrate(dbQueue) }
        try dbQueue.read { db in
            step("hasCompleted") { try migrator.hasCompletedMigrations(db) }
            printSchema(db)
        }
        var shorter = DatabaseMigrator()
        shorter.registerMigration("createTeam") { _ in }
        try dbQueue.read { db in
            step("superseded") { try shorter.hasBeenSuperseded(db) }
            step("shorter completed") { try shorter.hasCompletedMigrations(db) }
        }
        step("migrate superseded") { try shorter.migrate(dbQueue) }
        step("migrate upTo earlier") { try migrator.migrate(dbQueue, upTo: "createTeam") }
        // GRDB traps here ("undefined migration"), and so does GRDBCipher: last step.
        step("migrate upTo unknown") { try migrator.migrate(dbQueue, upTo: "nope") }
    },
    Program("migrations-failures") {
        let dbQueue = try makeQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("one") { db in
            try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)")
        }
        migrator.registerMigration("two fails") { db in
            try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO nope VALUES (1)")
        }
        step("migrate") { try migrator.migrate(dbQueue) }
        try dbQueue.read { db in printSchema(db) }

        let fkQueue = try makeQueue()
        var fkMigrator = DatabaseMigrator()
        fkMigrator.registerMigration("tables") { db in
            try db.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id));
                """)
        }
        fkMigrator.registerMigration("orphan") { db in
            try db.execute(sql: "INSERT INTO child (id, parentId) VALUES (1, 42)")
        }
        step("fk migrate") { try fkMigrator.migrate(fkQueue) }
        try fkQueue.read { db in printSchema(db) }

        let immediateQueue = try makeQueue()
        var immediate = DatabaseMigrator()
        immediate.registerMigration("tables") { db in
            try db.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id));
                """)
        }
        immediate.registerMigration("orphan", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "INSERT INTO child (id, parentId) VALUES (1, 42)")
        }
        step("immediate fk migrate") { try immediate.migrate(immediateQueue) }

        let disabledQueue = try makeQueue()
        var disabled = DatabaseMigrator().disablingDeferredForeignKeyChecks()
        disabled.registerMigration("tables") { db in
            try db.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id));
                INSERT INTO child (id, parentId) VALUES (1, 42);
                """)
        }
        step("disabled fk migrate") { try disabled.migrate(disabledQueue) }
        try disabledQueue.read { db in
            step("checkForeignKeys") { try db.checkForeignKeys() }
            step("foreignKeyViolations") {
                try db.foreignKeyViolations().map { "\($0.originTable) \($0.originRowID as Any) \($0.destinationTable) \($0.foreignKeyId)" }
                    .reduce(into: []) { $0.append($1) }
            }
            step("checkForeignKeys in table") { try db.checkForeignKeys(in: "child") }
            step("foreignKeyViolations in table") { try Array(db.foreignKeyViolations(in: "child")).map(\.description) }
            step("foreignKeyViolations missing table") { try Array(db.foreignKeyViolations(in: "nope")).count }
            step("checkForeignKeys missing table") { try db.checkForeignKeys(in: "nope") }
        }
    },
    Program("migrations-pool-and-schema-change") {
        let dbPool = try makePool()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "item") { t in
                t.column("id", .integer).primaryKey()
                t.column("label", .text)
            }
        }
        step("migrate pool") { try migrator.migrate(dbPool) }
        try dbPool.read { db in printSchema(db) }
        migrator.registerMigration("v2") { db in
            try db.alter(table: "item") { t in
                t.add(column: "price", .double).notNull().defaults(to: 0)
                t.rename(column: "label", to: "title")
            }
        }
        step("migrate v2") { try migrator.migrate(dbPool) }
        try dbPool.read { db in printSchema(db) }
    },
]
