#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// Declares the primary key of the views it knows.
private struct ViewKeys: DatabaseSchemaSource {
    let keys: [String: [String]]

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        keys[view.name]
    }
}

private struct ScoreView: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "scoreView"
    var id: Int64
    var name: String
}

let schemaSourcePrograms: [Program] = [
    Program("schema-source-views") {
        let dbQueue = try makeQueue { config in
            config.schemaSource = ViewKeys(keys: ["scoreView": ["id"]]).then(ViewKeys(keys: ["scoreView": ["name"], "pairView": ["a", "b"]]))
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara');
                CREATE VIEW scoreView AS SELECT id, name FROM player;
                CREATE VIEW pairView AS SELECT id AS a, name AS b FROM player;
                """)
            step("in migration, no source") { try db.primaryKey("scoreView").columns }
            try db.withSchemaSource(ViewKeys(keys: ["scoreView": ["name"]])) {
                step("in migration, with source") { try db.primaryKey("scoreView").columns }
            }
        }
        step("migrate") { try migrator.migrate(dbQueue) }
        try dbQueue.read { db in
            step("view key") { try db.primaryKey("scoreView").columns }
            step("view key info") {
                let key = try db.primaryKey("pairView")
                return "\(key.columns) \(String(describing: key.rowIDColumn)) \(key.isRowID)"
            }
            step("find") { try ScoreView.find(db, id: 2).name }
            step("fetchOne key") { try ScoreView.fetchOne(db, key: 1)?.name }
            step("exists") { try ScoreView.exists(db, id: 3) }
            step("filter ids") { try ScoreView.filter(ids: [1, 2]).order(Column("id")).fetchAll(db).map(\.name) }
            step("stable order") { try ScoreView.all().withStableOrder().fetchAll(db).map(\.name) }
            step("unique key") { try db.table("scoreView", hasUniqueKey: ["id"]) }
            step("without source") {
                try db.withSchemaSource(nil) { try db.primaryKey("scoreView").columns }
            }
            step("after") { try db.primaryKey("scoreView").columns }
            step("no key for a table") { try db.primaryKey("player").columns }
        }
    },
]
