import Foundation
import Testing
@testable import GRDBCipher

private struct AltPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
}

private struct RestrictedPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["teamId", "SCORE"])] }
}

/// SQL literals holding query-interface values, built against an encrypted
/// database: the SQL GRDB documents, values always bound.
@Suite struct SQLInterpolationQueryInterfaceTests {
    @Test func recordTypesInterpolateAsQuotedTableNames() throws {
        try withTeamsAndPlayers { db throws in
            let player = GenPlayer(id: 1, name: "Arthur")
            let query: SQL = "SELECT COUNT(*) FROM \(GenPlayer.self) WHERE rowid IN (SELECT rowid FROM \(tableOf: player))"
            let (sql, arguments) = try query.build(db)
            #expect(sql == #"SELECT COUNT(*) FROM "player" WHERE rowid IN (SELECT rowid FROM "player")"#)
            #expect(arguments.isEmpty)
            #expect(try Int.fetchOne(db, literal: query) == 4)
            #expect(try Int.fetchOne(db, literal: "SELECT COUNT(*) FROM \(Table<Row>("team"))") == 3)
        }
    }

    @Test func columnsOfARecordTypeAreQualified() throws {
        try withTeamsAndPlayers { db throws in
            #expect(try SQL("SELECT \(columnsOf: GenPlayer.self) FROM player").build(db).sql
                == #"SELECT "player".* FROM player"#)
            #expect(try SQL("SELECT \(columnsOf: GenPlayer.self, tableAlias: "p") FROM player p").build(db).sql
                == #"SELECT "p".* FROM player p"#)
            #expect(try SQL("SELECT \(columnsOf: AltPlayer.self, tableAlias: "p") FROM player p").build(db).sql
                == #"SELECT "p"."id", "p"."name" FROM player p"#)
            // Excluded columns are looked up in the schema, case-insensitively.
            let restricted: SQL = "SELECT \(columnsOf: RestrictedPlayer.self) FROM player ORDER BY id"
            #expect(try restricted.build(db).sql == #"SELECT "player"."id", "player"."name" FROM player ORDER BY id"#)
            let row = try #require(try Row.fetchOne(db, literal: restricted))
            #expect(row == ["id": 1, "name": "Arthur"])
        }
    }

    @Test func expressionsSelectionsAndOrderingsInterpolateWithBoundValues() throws {
        try withTeamsAndPlayers { db throws in
            let score = Column("score")
            let query: SQL = """
                SELECT \(Column("name")), \(score != nil), \(score.forKey("s")) FROM player \
                WHERE \(score > 200) ORDER BY \(score.desc)
                """
            let (sql, arguments) = try query.build(db)
            #expect(sql == #"SELECT "name", "score" IS NOT NULL, "score" AS "s" FROM player WHERE "score" > ? ORDER BY "score" DESC"#)
            #expect(arguments == [200])
            let rows = try Row.fetchAll(db, literal: query)
            #expect(rows.map { $0["name"] as String } == ["Barbara", "Diane"])
            #expect(rows.map { $0["s"] as Int } == [1000, 500])
        }
    }

    @Test func nilExpressionIsNULL() throws {
        try inMemoryDatabase { db throws in
            let missing: (any SQLExpressible)? = nil
            let query: SQL = "SELECT \(missing) IS NULL"
            #expect(query.sql == "SELECT NULL IS NULL")
            #expect(try Bool.fetchOne(db, literal: query) == true)
        }
    }

    @Test func requestsInterpolateAsTheirSelectWithoutParentheses() throws {
        try withTeamsAndPlayers { db throws in
            let maxScore = GenPlayer.select(SQL("MAX(score)").sqlExpression)
            let request: SQLRequest<String> = "SELECT name FROM player WHERE score = (\(maxScore))"
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT name FROM player WHERE score = (SELECT MAX(score) FROM "player")"#)
            #expect(try request.fetchAll(db) == ["Barbara"])
            // An SQL request is a subquery too, and keeps its arguments in order.
            let high: SQLRequest<Int> = "SELECT id FROM player WHERE score > \(400)"
            let query: SQL = "SELECT name FROM player WHERE id IN (\(high)) AND name <> \("Diane")"
            #expect(try query.build(db).arguments == [400, "Diane"])
            #expect(try String.fetchAll(db, literal: query) == ["Barbara"])
        }
    }

    @Test func expressionListsForIN() throws {
        try withTeamsAndPlayers { db throws in
            let columns = [Column("id"), Column("teamId")]
            let query: SQL = "SELECT name FROM player WHERE 2 IN \(columns) ORDER BY id"
            #expect(try query.build(db).sql == #"SELECT name FROM player WHERE 2 IN ("id","teamId") ORDER BY id"#)
            #expect(try String.fetchAll(db, literal: query) == ["Barbara", "Craig"])
            let empty: [Column] = []
            #expect(try SQL("SELECT 1 IN \(empty)").build(db).sql == "SELECT 1 IN (SELECT NULL WHERE NULL)")
        }
    }

    @Test func columnsInLiteralsAreQualifiedWhenTheRequestIsAliased() throws {
        try withTeamsAndPlayers { db throws in
            let p = TableAlias(name: "p")
            let request = GenPlayer.aliased(p).filter(literal: "\(Column("score")) > \(150)").order(literal: "\(GenPlayer.Columns.name)")
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "p".* FROM "player" "p" WHERE "p"."score" > ? ORDER BY "p"."name""#)
            #expect(arguments == [150])
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Diane"])
        }
    }

    @Test func hostileStringsAreBoundNotSpliced() throws {
        try withTeamsAndPlayers { db throws in
            let hostile = ["O'Brien", "x'; DROP TABLE player; --", "' OR 1=1 --", "a\"b", "-- comment"]
            for (index, name) in hostile.enumerated() {
                try db.execute(literal: "INSERT INTO \(GenPlayer.self) (id, name) VALUES (\(100 + index), \(name))")
            }
            let stored = try GenPlayer
                .filter(literal: "\(Column("id")) >= \(100)")
                .order(Column("id"))
                .fetchAll(db)
            #expect(stored.map(\.name) == hostile)
            #expect(try GenPlayer.filter(sql: "name = ?", arguments: ["' OR 1=1 --"]).fetchCount(db) == 1)
            #expect(try GenPlayer.filter(Column("name") == "' OR 1=1").fetchCount(db) == 0)
            #expect(try GenPlayer.fetchCount(db) == 9)
        }
    }

    @Test func rawLiteralsBuildWithoutTheGenerationContext() {
        let query: SQL = "SELECT \(1), \(identifier: "a b")"
        #expect(query.isRaw)
        #expect(query.leadingElements.isEmpty)
        let lazy: SQL = "SELECT \(Column("a"))"
        #expect(!lazy.isRaw)
        #expect(!lazy.isEmpty)
        #expect(lazy.sql == #"SELECT "a""#)
    }

    @Test func sqlFromAnExpressionAndBack() throws {
        try withTeamsAndPlayers { db throws in
            let email = [SQL(Column("name")), SQL("@example.com".databaseValue)].joined(separator: " || ")
            let request = GenPlayer.filter(key: 1).select([email.sqlExpression], as: String.self)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "name" || ? FROM "player" WHERE "id" = ?"#)
            #expect(arguments == ["@example.com", 1])
            #expect(try request.fetchOne(db) == "Arthur@example.com")
        }
    }
}
