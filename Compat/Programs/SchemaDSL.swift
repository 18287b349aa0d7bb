#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

let schemaPrograms: [Program] = [
    Program("schema-create-table") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            step("plain") {
                try db.create(table: "a") { t in
                    t.column("id", .integer).primaryKey()
                    t.column("name", .text).notNull(onConflict: .replace).defaults(to: "x").collate(.nocase)
                    t.column("flag", .boolean).notNull().defaults(to: false)
                    t.column("ratio", .double).check { $0 > 0 }
                    t.column("data", .blob)
                    t.column("json", .jsonText)
                    t.column("created", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                    t.column("untyped")
                    t.column("num", .numeric).unique(onConflict: .ignore)
                    t.column("day", .date).indexed()
                    t.column("custom", .init(rawValue: "VARCHAR(10)"))
                    t.check(sql: "length(name) < 100")
                }
            }
            step("options") {
                try db.create(table: "b", options: [.ifNotExists, .withoutRowID, .strict]) { t in
                    t.primaryKey("code", .text)
                    t.column("value", .integer)
                }
            }
            step("if not exists again") {
                try db.create(table: "b", options: [.ifNotExists]) { t in t.column("x") }
            }
            step("temporary") {
                try db.create(table: "tmp", options: [.temporary]) { t in t.column("x", .integer) }
            }
            step("autoincrement") {
                try db.create(table: "c") { t in
                    t.autoIncrementedPrimaryKey("id", onConflict: .fail)
                    t.column("aId", .integer).references("a", onDelete: .setNull, onUpdate: .cascade, deferred: true)
                    t.column("bCode", .text).notNull().references("b")
                }
            }
            step("composite primary key") {
                try db.create(table: "d") { t in
                    t.primaryKey {
                        t.column("x", .integer)
                        t.column("y", .text)
                    }
                    t.column("z")
                    t.uniqueKey(["z", "x"], onConflict: .rollback)
                    t.foreignKey(["x"], references: "a", columns: ["id"], onDelete: .restrict)
                }
            }
            step("primaryKey columns") {
                try db.create(table: "e") { t in
                    t.column("p", .integer)
                    t.column("q", .integer)
                    t.primaryKey(["p", "q"], onConflict: .abort)
                }
            }
            step("belongsTo") {
                try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
                try db.create(table: "country") { t in t.primaryKey("code", .text) }
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("team")
                    t.belongsTo("country", onDelete: .cascade).notNull()
                    t.belongsTo("captain", inTable: "player", indexed: false)
                }
            }
            step("generated") {
                try db.create(table: "g") { t in
                    t.column("a", .integer)
                    t.column("b", .integer).generatedAs(sql: "a * 2")
                    t.column("c", .integer).generatedAs(Column("a") + 1, .stored)
                }
            }
            step("defaults expressions") {
                try db.create(table: "h") { t in
                    t.column("a", .integer).defaults(to: 1)
                    t.column("b", .double).defaults(to: 1.5)
                    t.column("c", .text).defaults(to: "it's")
                    t.column("d", .blob).defaults(to: Data([1, 2]))
                    t.column("e").defaults(to: nil as Int?)
                    t.column("f", .datetime).defaults(to: Date(timeIntervalSince1970: 0))
                }
            }
            step("check expressions") {
                try db.create(table: "i") { t in
                    t.column("a", .integer).check { $0 != 0 && $0 < 10 }
                    t.column("b", .text).check(sql: "b IN ('x', 'y')")
                    t.check(Column("a") > 1)
                }
            }
            step("constraints literal") {
                try db.create(table: "j") { t in
                    t.column("a", .integer)
                    t.constraint(sql: "CHECK (a > 0)")
                    t.column(sql: "b TEXT NOT NULL DEFAULT ''")
                    t.column(literal: "c INTEGER DEFAULT \(5)")
                }
            }
            step("duplicate table") { try db.create(table: "a") { t in t.column("x") } }
            printSchema(db)
        }
    },
    Program("schema-alter-drop-index") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("name", .text)
                    t.column("score", .integer)
                }
            }
            step("alter") {
                try db.alter(table: "player") { t in
                    t.add(column: "email", .text).collate(.nocase)
                    t.add(column: "bonus", .integer).notNull().defaults(to: 0)
                    t.rename(column: "score", to: "points")
                    t.drop(column: "name")
                }
            }
            step("add virtual") {
                try db.alter(table: "player") { t in t.addColumn(literal: "twice INTEGER AS (points * 2)") }
            }
            step("create index") { try db.create(index: "byPoints", on: "player", columns: ["points"]) }
            step("create index options") {
                try db.create(index: "byBonus", on: "player", columns: ["bonus", "points"], options: [.unique, .ifNotExists], condition: Column("bonus") > 0)
            }
            step("create index expressions") {
                try db.create(index: "byLower", on: "player", expressions: [Column("email").lowercased, Column("points") * 2])
            }
            step("indexOn") { try db.create(indexOn: "player", columns: ["email", "points"]) }
            step("indexOn again") { try db.create(indexOn: "player", columns: ["email", "points"]) }
            step("indexes") {
                try db.indexes(on: "player").map { "\($0.name) \($0.columns) unique=\($0.isUnique) origin=\($0.origin)" }.sorted()
            }
            step("drop indexOn") { try db.drop(indexOn: "player", columns: ["email", "points"]) }
            step("drop index") { try db.drop(index: "byPoints") }
            step("drop missing index") { try db.drop(index: "byPoints") }
            step("rename") { try db.rename(table: "player", to: "athlete") }
            step("view") { try db.create(view: "good", as: Table("athlete").filter(Column("points") > 10)) }
            step("view options") {
                try db.create(view: "names", options: [.ifNotExists, .temporary], columns: ["a"], asLiteral: "SELECT email FROM athlete")
            }
            step("view sql") { try db.create(view: "v2", as: SQLRequest<Row>(sql: "SELECT 1 AS one")) }
            step("view exists") { (try db.viewExists("good"), try db.viewExists("nope")) }
            printSchema(db)
            step("drop view") { try db.drop(view: "good") }
            step("drop table") { try db.drop(table: "athlete") }
            step("drop missing table") { try db.drop(table: "athlete") }
            step("reindex") { try db.reindex(collation: .nocase) }
            printSchema(db)
        }
    },
    Program("schema-introspection") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly {
                try db.execute(sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
                    CREATE TABLE player (
                      id INTEGER PRIMARY KEY AUTOINCREMENT,
                      teamId INTEGER REFERENCES team(id) ON DELETE CASCADE,
                      name TEXT NOT NULL DEFAULT 'anon',
                      score INT);
                    CREATE UNIQUE INDEX playerName ON player(teamId, name);
                    CREATE TABLE pair (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
                    CREATE TABLE norowid (a, b);
                    CREATE VIEW v AS SELECT 1;
                    CREATE TRIGGER trig AFTER INSERT ON team BEGIN SELECT 1; END;
                    """)
            }
            step("tableExists") { (try db.tableExists("player"), try db.tableExists("PLAYER"), try db.tableExists("nope")) }
            step("triggerExists") { try db.triggerExists("trig") }
            step("columns") {
                try db.columns(in: "player").map { "\($0.name) \($0.type) notNull=\($0.isNotNull) default=\($0.defaultValueSQL ?? "nil") pk=\($0.primaryKeyIndex)" }
            }
            step("primaryKey") { try [db.primaryKey("player"), db.primaryKey("pair"), db.primaryKey("norowid")].map { "\($0.columns) rowID=\($0.rowIDColumn ?? "nil") isRowID=\($0.isRowID)" } }
            step("indexes") { try db.indexes(on: "player").map { "\($0.name) \($0.columns) \($0.isUnique)" } }
            step("hasUniqueKey") { (try db.table("player", hasUniqueKey: ["teamId", "name"]), try db.table("player", hasUniqueKey: ["name"]), try db.table("player", hasUniqueKey: ["id"])) }
            step("foreignKeys") { try db.foreignKeys(on: "player").map { "\($0.destinationTable) \($0.mapping.map { "\($0.origin)->\($0.destination)" })" } }
            step("columns missing table") { try db.columns(in: "nope") }
            step("primaryKey missing table") { try db.primaryKey("nope") }
            step("schemaVersion") { try db.schemaVersion() > 0 }
        }
    },
]
