import Foundation
import Testing
@testable import GRDBCipher

private struct Player: FetchableRecord, TableRecord, Decodable, Hashable, Identifiable {
    var id: Int64
    var name: String
    var score: Int?

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
    }
}

private struct PostalAddress: TableRecord { }
private struct HTTPRequest: TableRecord { }
private struct TOEFL: TableRecord { }
private struct Box<T>: TableRecord { }

/// Requests of the query interface that records need, on an encrypted
/// database: the SQL they generate (traced) and what they fetch.
@Suite struct QueryInterfaceRequestTests {
    private func withPlayers(_ body: (Database) throws -> Void) throws {
        try inEncryptedDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
                INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 1000), (3, 'Craig', NULL);
                """)
            try body(db)
        }
    }

    /// The SQL of the statements `body` runs, as traced, without the
    /// schema queries of the connection's schema cache.
    private func tracedSQL(_ db: Database, _ body: () throws -> Void) throws -> [String] {
        var sql: [String] = []
        db.trace { sql.append($0.description) }
        defer { db.trace(nil) }
        try body()
        return sql.filter { !$0.hasPrefix("PRAGMA") && !$0.hasPrefix("--") && !$0.contains("sqlite_master") }
    }

    @Test func defaultTableNamesFollowGRDB() {
        #expect(Player.databaseTableName == "player")
        #expect(PostalAddress.databaseTableName == "postalAddress")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(TOEFL.databaseTableName == "toefl")
        #expect(Box<Int>.databaseTableName == "box")
    }

    @Test func allFilterOrderLimitGenerateGRDBsSQL() throws {
        try withPlayers { db in
            var players: [Player] = []
            let sql = try tracedSQL(db) { () throws in
                players = try Player
                    .filter(Player.Columns.score > 50 && Player.Columns.name != "Craig")
                    .order(Player.Columns.score.desc, Player.Columns.name)
                    .limit(10, offset: 0)
                    .fetchAll(db)
            }
            #expect(sql == [
                #"SELECT * FROM "player" WHERE ("score" > ?) AND ("name" <> ?) ORDER BY "score" DESC, "name" LIMIT 10 OFFSET 0"#,
            ])
            #expect(players.map(\.name) == ["Barbara", "Arthur"])
        }
    }

    @Test func comparingWithNilIsNullTest() throws {
        try withPlayers { db in
            var names: [String] = []
            let sql = try tracedSQL(db) { () throws in
                names = try Player.filter(Player.Columns.score == nil).fetchAll(db).map(\.name)
                _ = try Player.filter(Player.Columns.score != nil).fetchCount(db)
            }
            #expect(names == ["Craig"])
            #expect(sql == [
                #"SELECT * FROM "player" WHERE "score" IS NULL"#,
                #"SELECT COUNT(*) FROM "player" WHERE "score" IS NOT NULL"#,
            ])
        }
    }

    @Test func valuesAreBoundNeverSpliced() throws {
        try withPlayers { db in
            let hostile = "x' OR 1=1; --"
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, ?)", arguments: [hostile])
            let found = try Player.filter(Player.Columns.name == hostile).fetchAll(db)
            #expect(found.map(\.id) == [4])
            #expect(try Player.filter(sql: "name = ?", arguments: [hostile]).fetchCount(db) == 1)
        }
    }

    @Test func fetchOneAddsLimitOneAndCountIsDirect() throws {
        try withPlayers { db in
            let sql = try tracedSQL(db) { () throws in
                #expect(try Player.order(Player.Columns.name).fetchOne(db)?.name == "Arthur")
                #expect(try Player.fetchCount(db) == 3)
                #expect(try Player.all().distinct().fetchCount(db) == 3)
                #expect(try Player.all().isEmpty(db) == false)
                #expect(try Player.none().isEmpty(db) == true)
            }
            #expect(sql == [
                #"SELECT * FROM "player" ORDER BY "name" LIMIT 1"#,
                #"SELECT COUNT(*) FROM "player""#,
                #"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "player")"#,
                #"SELECT EXISTS (SELECT * FROM "player")"#,
                #"SELECT EXISTS (SELECT * FROM "player" WHERE ?)"#,
            ])
        }
    }

    @Test func selectAsFetchesValues() throws {
        try withPlayers { db in
            let names = try Player.select(Player.Columns.name, as: String.self).order(Player.Columns.id).fetchAll(db)
            #expect(names == ["Arthur", "Barbara", "Craig"])
            let maxScore = try Player.select(SQLExpression(sql: "MAX(score)"), as: Int.self).fetchOne(db)
            #expect(maxScore == 1000)
            let rows = try Player.all().asRequest(of: Row.self).fetchAll(db)
            #expect(rows.count == 3)
        }
    }

    @Test func aRequestReusesItsCachedStatement() throws {
        try withPlayers { db in
            let request = Player.filter(Player.Columns.score > 10)
            let first = try request.makePreparedRequest(db, forSingleResult: false).statement
            let second = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(first === second)
        }
    }

    @Test func keysFilterOnThePrimaryKey() throws {
        try withPlayers { db in
            var found: [Player] = []
            let sql = try tracedSQL(db) { () throws in
                found.append(try #require(try Player.fetchOne(db, key: 1)))
                found += try Player.fetchAll(db, keys: [2, 3])
                found.append(try Player.find(db, id: 3))
            }
            #expect(found.map(\.id) == [1, 2, 3, 3])
            #expect(sql == [
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"SELECT * FROM "player" WHERE "id" IN (?, ?)"#,
                #"SELECT * FROM "player" WHERE "id" = ?"#,
            ])
            #expect(try Player.fetchAll(db, keys: [Int]()).isEmpty)
            #expect(try Player.fetchSet(db, ids: [1, 2]).count == 2)
            #expect(try Player.exists(db, id: 2))
            #expect(try !Player.exists(db, key: 42))
        }
    }

    @Test func findThrowsRecordNotFound() throws {
        try withPlayers { db in
            let error = #expect(throws: RecordError.self) { try Player.find(db, id: 42) }
            guard case .recordNotFound(let tableName, let key) = error else { return }
            #expect(tableName == "player")
            #expect(key == ["id": 42.databaseValue])
            #expect(error?.description == "Key not found in table player: [id:42]")
        }
    }

    @Test func deletingByKey() throws {
        try withPlayers { db in
            let sql = try tracedSQL(db) { () throws in
                #expect(try Player.deleteOne(db, id: 1))
                #expect(try !Player.deleteOne(db, key: 1))
                #expect(try Player.deleteAll(db, ids: [2, 3, 4]) == 2)
            }
            #expect(sql == [
                #"DELETE FROM "player" WHERE "id" = ?"#,
                #"DELETE FROM "player" WHERE "id" = ?"#,
                #"DELETE FROM "player" WHERE "id" IN (?, ?, ?)"#,
            ])
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func deleteAllWithALimitDeletesByRowID() throws {
        try withPlayers { db in
            let deleted = try Player.order(Player.Columns.id).limit(2).deleteAll(db)
            #expect(deleted == 2)
            #expect(try Player.fetchAll(db).map(\.id) == [3])
        }
    }

    @Test func hiddenRowIDAndUniqueKeys() throws {
        struct Item: FetchableRecord, TableRecord, Decodable {
            var code: String
            var label: String
        }
        try inEncryptedDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE item (code TEXT NOT NULL UNIQUE, label TEXT);
                INSERT INTO item VALUES ('a', 'Apple'), ('b', 'Banana');
                """)
            // The table has no declared primary key: the key is the rowid.
            #expect(try Item.fetchOne(db, key: 2)?.code == "b")
            #expect(try Item.fetchOne(db, key: ["code": "a"])?.label == "Apple")
            #expect(try Item.exists(db, key: ["code": "b"]))
            let error = #expect(throws: DatabaseError.self) { try Item.fetchOne(db, key: ["label": "Apple"]) }
            #expect(error?.message == "table item has no unique key on column(s) label")
        }
    }

    @Test func compositePrimaryKeys() throws {
        struct Membership: FetchableRecord, TableRecord, Decodable {
            var teamID: Int
            var playerID: Int
        }
        try inEncryptedDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE membership (teamID INTEGER, playerID INTEGER, PRIMARY KEY (teamID, playerID));
                INSERT INTO membership VALUES (1, 10), (1, 11);
                """)
            var found: Membership?
            let sql = try tracedSQL(db) { () throws in
                found = try Membership.fetchOne(db, key: ["playerID": 11, "teamID": 1])
            }
            #expect(found?.playerID == 11)
            // The columns in the order of the key.
            #expect(sql == [#"SELECT * FROM "membership" WHERE ("teamID" = ?) AND ("playerID" = ?)"#])
            let error = #expect(throws: DatabaseError.self) { try Membership.fetchOne(db, key: 1) }
            #expect(error?.message == "Filtering by primary key requires a single-column primary key in the table 'membership'")
        }
    }

    @Test func anUnknownTableIsADatabaseError() throws {
        struct Ghost: FetchableRecord, TableRecord, Decodable { var id: Int }
        try inEncryptedDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) { try Ghost.fetchAll(db) }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such table: ghost")
            #expect(throws: DatabaseError.self) { try Ghost.fetchOne(db, key: 1) }
        }
    }

    @Test func selectionExcludingColumns() throws {
        struct Partial: FetchableRecord, TableRecord, Decodable {
            static let databaseTableName = "player"
            static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["score"])] }
            var id: Int64
            var name: String
        }
        try withPlayers { db in
            let sql = try tracedSQL(db) { _ = try Partial.fetchAll(db) }
            #expect(sql == [#"SELECT "id", "name" FROM "player""#])
        }
    }

    @Test func rowIDCanBeSelected() throws {
        struct PlayerWithRowID: FetchableRecord, TableRecord, Decodable {
            static let databaseTableName = "player"
            static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
            var id: Int64
            var name: String
        }
        try withPlayers { db in
            let sql = try tracedSQL(db) { () throws in
                let players = try PlayerWithRowID.order(Column.rowID).fetchAll(db)
                // SQLite names the rowid of an INTEGER PRIMARY KEY table after its key.
                #expect(players.map(\.id) == [1, 2, 3])
                #expect(try Player.select(.rowID, as: Int64.self).fetchSet(db) == [1, 2, 3])
            }
            #expect(sql == [
                #"SELECT *, "rowid" FROM "player" ORDER BY "rowid""#,
                #"SELECT "rowid" FROM "player""#,
            ])
        }
    }

    @Test func gRDB7SnippetsCompileAndRun() throws {
        struct Place: FetchableRecord, TableRecord, Decodable {
            var id: Int64
            var name: String
            var score: Int
            enum Columns {
                static let id = Column("id")
                static let name = Column("name")
                static let score = Column("score")
            }
        }
        enum PlaceColumn: String, ColumnExpression { case id, name, score }
        try inEncryptedDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
                INSERT INTO place VALUES (1, 'Paris', 10), (2, 'Rome', 30), (3, 'Paris', 20);
                """)
            let sql = try tracedSQL(db) { () throws in
                let paris = try Place.filter { $0.name == "Paris" && $0.score > 5 }.order(\.score.desc).fetchAll(db)
                #expect(paris.map(\.id) == [3, 1])
                #expect(try Place.filter(Place.Columns.score >= 10 && Place.Columns.score <= 20).fetchCount(db) == 2)
                #expect(try Place.filter(Place.Columns.id < Place.Columns.score).fetchCount(db) == 3)
                #expect(try Place.filter(PlaceColumn.name == "Rome" || PlaceColumn.score > 25).fetchCount(db) == 1)
                #expect(try Place.select(Place.Columns.name).distinct().fetchCount(db) == 2)
                let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM place WHERE id = 2"))
                #expect(row[PlaceColumn.name] == "Rome")
            }
            #expect(sql.contains(#"SELECT * FROM "place" WHERE ("name" = ?) AND ("score" > ?) ORDER BY "score" DESC"#))
            #expect(sql.contains(#"SELECT COUNT(DISTINCT "name") FROM "place""#))
        }
    }

    @Test func aNullKeyMatchesNoRow() throws {
        struct Tag: TableRecord { }
        try inEncryptedDatabase { db throws in
            // SQLite lets a NULL into a primary key that is not an INTEGER PRIMARY KEY.
            try db.execute(sql: "CREATE TABLE tag (name TEXT PRIMARY KEY); INSERT INTO tag VALUES (NULL), ('a')")
            let sql = try tracedSQL(db) { () throws in
                #expect(try Tag.filter(keys: [nil as String?]).fetchCount(db) == 0)
                #expect(try Tag.filter(keys: [nil, "a"] as [String?]).fetchCount(db) == 1)
            }
            #expect(sql == [
                #"SELECT COUNT(*) FROM "tag" WHERE "name" = NULL"#,
                #"SELECT COUNT(*) FROM "tag" WHERE "name" IN (NULL, ?)"#,
            ])
        }
    }
}
