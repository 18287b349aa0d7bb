import Foundation
import Testing
@testable import GRDBCipher

/// Declares the primary key of the views it knows.
private struct ViewKeys: DatabaseSchemaSource {
    var keys: [String: [String]]

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        keys[view.name]
    }
}

private struct PlayerView: Codable, FetchableRecord, TableRecord, Identifiable {
    static let databaseTableName = "playerView"
    var id: Int64
    var name: String
}

@Suite struct SchemaSourceTests {
    /// Runs `body` with an encrypted queue that has a player table and a
    /// view on it; the queue's folder lives until `body` returns.
    private func withQueue(_ source: (any DatabaseSchemaSource)?, _ body: (DatabaseQueue) throws -> Void) throws {
        let dir = try TemporaryDirectory()
        var config = keyed("schema source secret")
        config.schemaSource = source
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
                INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 20);
                CREATE VIEW playerView AS SELECT id, name FROM player;
                """)
        }
        try withExtendedLifetime(dir) { try body(dbQueue) }
    }

    @Test func aViewHasNoPrimaryKeyWithoutASource() throws {
        try withQueue(nil) { dbQueue in
            try dbQueue.read { db throws in
                let error = #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
                #expect(error?.message == "database view playerView has no primary key")
            }
        }
    }

    @Test func aSourceGivesAViewItsPrimaryKeyAndRecordsReadItByKey() throws {
        try withQueue(ViewKeys(keys: ["playerView": ["ID"]])) { dbQueue in
            try dbQueue.read { db throws in
                let primaryKey = try db.primaryKey("playerView")
                #expect(primaryKey.columns == ["id"], "the view's own spelling of the column")
                #expect(primaryKey.tableHasRowID == false)
                #expect(primaryKey.rowIDColumn == nil)
                #expect(try PlayerView.find(db, id: 2).name == "Barbara")
                #expect(try PlayerView.fetchOne(db, key: 1)?.name == "Arthur")
                #expect(try PlayerView.exists(db, id: 3) == false)
                #expect(try PlayerView.fetchAll(db, ids: [2, 1]).map(\.name).sorted() == ["Arthur", "Barbara"])
            }
            // Tables are unchanged.
            try dbQueue.read { db throws in #expect(try db.primaryKey("player").rowIDColumn == "id") }
        }
    }

    @Test func aKeyLookupInAViewKeepsLimitOneAsInGRDB() throws {
        // GRDB only trusts unique keys of tables: a view keyed by a schema
        // source is still read with LIMIT 1.
        try withQueue(ViewKeys(keys: ["playerView": ["id"]])) { dbQueue in
            try dbQueue.read { db throws in
                let statements = try tracedStatements(db) {
                    _ = try PlayerView.fetchOne(db, key: 1)
                    _ = try PlayerView.fetchOne(db, sql: "SELECT * FROM player WHERE id = 1")
                }
                #expect(statements.filter { $0.hasPrefix("SELECT *") }.first == #"SELECT * FROM "playerView" WHERE "id" = ? LIMIT 1"#, "\(statements)")
            }
        }
    }

    @Test func withSchemaSourceSwitchesThenRestores() throws {
        try withQueue(nil) { dbQueue in
            try dbQueue.read { db throws in
                #expect(db.schemaSource == nil)
                try db.withSchemaSource(ViewKeys(keys: ["playerView": ["id", "name"]])) { () throws in
                    #expect(try db.primaryKey("playerView").columns == ["id", "name"])
                }
                // The key learned with the source is not kept in the cache.
                #expect(db.schemaSource == nil)
                #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
            }
        }
    }

    @Test func migrationsSeeNoSchemaSource() throws {
        try withQueue(ViewKeys(keys: ["playerView": ["id"]])) { dbQueue in
            let seen = LockedValue<[String]>([])
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                seen.withLock { $0.append(db.schemaSource == nil ? "no source" : "source") }
                do {
                    _ = try db.primaryKey("playerView")
                    seen.withLock { $0.append("key") }
                } catch {
                    seen.withLock { $0.append("no key") }
                }
                // A migration may ask for one.
                try db.withSchemaSource(ViewKeys(keys: ["playerView": ["name"]])) { () throws in
                    let columns = try db.primaryKey("playerView").columns.joined()
                    seen.withLock { $0.append(columns) }
                }
            }
            try migrator.migrate(dbQueue)
            #expect(seen.withLock { $0 } == ["no source", "no key", "name"])
            try dbQueue.read { db throws in
                #expect(db.schemaSource != nil, "the configuration's source is back after the migration")
                #expect(try db.primaryKey("playerView").columns == ["id"])
            }
        }
    }

    @Test func chainedSourcesAskTheFirstThenTheSecond() throws {
        let source = ViewKeys(keys: ["playerView": ["id"]]).then(ViewKeys(keys: ["playerView": ["name"], "other": ["x"]]))
        try withQueue(source) { dbQueue in
            try dbQueue.write { db throws in
                try db.execute(sql: "CREATE VIEW other AS SELECT id AS x FROM player")
                #expect(try db.primaryKey("playerView").columns == ["id"])
                #expect(try db.primaryKey("other").columns == ["x"])
            }
        }
    }

    @Test func aKeyColumnMissingFromTheViewTraps() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db throws in
                try db.execute(sql: "CREATE TABLE t (a); CREATE VIEW v AS SELECT a FROM t")
                try db.withSchemaSource(ViewKeys(keys: ["v": ["missing"]])) { () throws in
                    _ = try db.primaryKey("v")
                }
            }
        }
    }
}
