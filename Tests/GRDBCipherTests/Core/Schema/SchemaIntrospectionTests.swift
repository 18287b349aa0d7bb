import Foundation
import Testing
@testable import GRDBCipher

@Suite("Schema introspection")
struct SchemaIntrospectionTests {
    @Test func existenceChecksAreCaseInsensitiveAndTypeSpecific() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                CREATE VIEW bestPlayer AS SELECT * FROM player;
                CREATE TRIGGER player_insert AFTER INSERT ON player BEGIN SELECT 1; END;
                """)
            #expect(try db.tableExists("player"))
            #expect(try db.tableExists("PLAYER"))
            #expect(try db.tableExists("player", in: "main"))
            #expect(try db.tableExists("bestPlayer") == false)
            #expect(try db.viewExists("bestplayer"))
            #expect(try db.viewExists("player") == false)
            #expect(try db.triggerExists("player_insert"))
            #expect(try db.triggerExists("player") == false)
            #expect(try db.tableExists("missing") == false)
        }
    }

    @Test func anUnknownSchemaThrows() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
            let error = #expect(throws: DatabaseError.self) { try db.tableExists("player", in: "nope") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such schema: nope")
            #expect(throws: DatabaseError.self) { try db.columns(in: "player", in: "nope") }
        }
    }

    @Test func internalTableNames() {
        #expect(Database.isSQLiteInternalTable("sqlite_sequence"))
        #expect(Database.isSQLiteInternalTable("pragma_table_info"))
        #expect(!Database.isSQLiteInternalTable("player"))
        #expect(Database.isGRDBInternalTable("grdb_migrations"))
        #expect(!Database.isGRDBInternalTable("sqlite_master"))
    }

    @Test func schemaVersionGrowsWithEachSchemaChange() throws {
        try withEncryptedSchemaDatabase { db in
            let before = try db.schemaVersion()
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
            let afterCreate = try db.schemaVersion()
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            #expect(try db.schemaVersion() == afterCreate)
            #expect(afterCreate > before)
        }
    }

    @Test func columnsDescribeTheTable() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL DEFAULT 'Anonymous',
                    score int DEFAULT 0,
                    createdAt DATETIME DEFAULT CURRENT_TIMESTAMP,
                    anything)
                """)
            let columns = try db.columns(in: "Player")
            #expect(columns.map(\.name) == ["id", "name", "score", "createdAt", "anything"])
            #expect(columns.map { $0.type.uppercased() } == ["INTEGER", "TEXT", "INT", "DATETIME", ""])
            #expect(columns.map(\.isNotNull) == [false, true, false, false, false])
            #expect(columns.map(\.defaultValueSQL) == [nil, "'Anonymous'", "0", "CURRENT_TIMESTAMP", nil])
            #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0, 0, 0])
            #expect(columns[1].columnType == .text)
            #expect(columns[4].columnType == nil)
        }
    }

    @Test func columnsIncludeGeneratedColumns() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE item (
                    price REAL,
                    quantity INTEGER,
                    total REAL GENERATED ALWAYS AS (price * quantity) VIRTUAL,
                    doubled REAL AS (price * 2) STORED)
                """)
            #expect(try db.columns(in: "item").map(\.name) == ["price", "quantity", "total", "doubled"])
            let selectAll = try db.makeStatement(sql: "SELECT * FROM item")
            #expect(selectAll.columnNames == ["price", "quantity", "total", "doubled"])
        }
    }

    @Test func columnsOfAViewAndOfTheSchemaTable() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                CREATE VIEW playerName AS SELECT name FROM player;
                """)
            #expect(try db.columns(in: "playerName").map(\.name) == ["name"])
            #expect(try db.columns(in: "sqlite_master").map(\.name) == ["type", "name", "tbl_name", "rootpage", "sql"])
        }
    }

    @Test func introspectingAnUnknownTableThrowsNoSuchTable() throws {
        try withEncryptedSchemaDatabase { db throws in
            for introspect in [
                { _ = try db.columns(in: "foo") },
                { _ = try db.primaryKey("foo") },
                { _ = try db.indexes(on: "foo") },
                { _ = try db.foreignKeys(on: "foo") },
                { try db.checkForeignKeys(in: "foo") },
            ] as [() throws -> Void] {
                let error = #expect(throws: DatabaseError.self) { try introspect() }
                #expect(error?.resultCode == .SQLITE_ERROR)
                #expect(error?.extendedResultCode == .SQLITE_ERROR)
                #expect(error?.message == "no such table: foo")
                #expect(error?.sql == nil)
            }
            // Twice: the second answer comes from the cache.
            #expect(throws: DatabaseError.self) { try db.columns(in: "foo") }
            #expect(try db.table("foo", hasUniqueKey: ["id"]) == false)
        }
    }

    @Test func tempObjectsHideMainObjectsOfTheSameName() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TEMP TABLE player (uuid TEXT PRIMARY KEY, score INTEGER, bonus INTEGER);
                """)
            // SQLite resolves unqualified names in temp first, so does introspection.
            #expect(try db.columns(in: "player").map(\.name) == ["uuid", "score", "bonus"])
            #expect(try db.columns(in: "player", in: "main").map(\.name) == ["id", "name"])
            #expect(try db.columns(in: "player", in: "TEMP").map(\.name) == ["uuid", "score", "bonus"])
            #expect(try db.primaryKey("player").columns == ["uuid"])
            #expect(try db.primaryKey("player", in: "main").rowIDColumn == "id")
            #expect(try db.tableExists("player", in: "temp"))
        }
    }

    @Test func attachedDatabasesAreSearchedAfterMain() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("main.sqlite"), configuration: keyedWithDefaultSettings("main secret"))
        let archivePath = dir.path("archive.sqlite")
        try DatabaseQueue(path: archivePath, configuration: keyedWithDefaultSettings("archive secret")).write { db in
            try db.execute(sql: "CREATE TABLE archivedPlayer (id INTEGER PRIMARY KEY, name TEXT, year INTEGER)")
            try db.execute(sql: "CREATE TABLE player (code TEXT PRIMARY KEY)")
        }
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "ATTACH DATABASE ? AS archive KEY ?", arguments: [archivePath, "archive secret"])
            #expect(try db.tableExists("archivedPlayer"))
            #expect(try db.tableExists("archivedPlayer", in: "main") == false)
            #expect(try db.tableExists("archivedPlayer", in: "archive"))
            #expect(try db.columns(in: "archivedPlayer").map(\.name) == ["id", "name", "year"])
            // main comes before attached databases.
            #expect(try db.primaryKey("player").columns == ["id"])
            #expect(try db.primaryKey("player", in: "archive").columns == ["code"])
            try db.execute(sql: "DETACH DATABASE archive")
            #expect(try db.tableExists("archivedPlayer") == false)
            let error = #expect(throws: DatabaseError.self) { try db.columns(in: "archivedPlayer", in: "archive") }
            #expect(error?.message == "no such schema: archive")
        }
    }
}

@Suite struct ColumnInfoFetchingTests {
    @Test func columnInfoIsAFetchableRecordOfTableInfoRows() throws {
        // GRDB code fetches ColumnInfo from PRAGMA table_info directly.
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x')")
            let columns = try ColumnInfo.fetchAll(db, sql: "PRAGMA table_info(player)")
            #expect(columns.map(\.name) == ["id", "name"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT"])
            #expect(columns.map(\.isNotNull) == [false, true])
            #expect(columns[1].defaultValueSQL == "'x'")
            #expect(columns.map(\.primaryKeyIndex) == [1, 0])
        }
    }
}
