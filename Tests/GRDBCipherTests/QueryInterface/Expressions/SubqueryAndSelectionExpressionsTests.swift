import Foundation
import Testing
@testable import GRDBCipher

/// An expression that is neither a value nor a column.
private struct BonusScore: SQLExpressible {
    var points: Int
    var sqlExpression: SQLExpression { Column("score") + points }
}

/// A literal listing expressions of one generic type.
private func scores<T: SQLExpressible>(in values: [T]) -> SQL {
    "SELECT name FROM player WHERE score IN \(values) ORDER BY id"
}

/// `SQLSubquery` as an expression, `AllColumnsExcluding`, and literals
/// listing expressions of any kind, as GRDB writes them.
@Suite struct SubqueryAndSelectionExpressionsTests {
    @Test func subqueryIsAnExpressionASelectionAndAnOrdering() throws {
        try withTeamsAndPlayers { db throws in
            let best: SQLSubquery = GenPlayer.select(max(Column("score"))).sqlSubquery
            let request = GenPlayer
                .select(Column("name"), best.forKey("best"))
                .filter(Column("score") == best)
                .order(best.desc, Column("name"))
                .asRequest(of: Row.self)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == """
                SELECT "name", (SELECT MAX("score") FROM "player") AS "best" FROM "player" \
                WHERE "score" = (SELECT MAX("score") FROM "player") \
                ORDER BY (SELECT MAX("score") FROM "player") DESC, "name"
                """)
            #expect(arguments.isEmpty)
            #expect(try request.fetchAll(db) == [["name": "Barbara", "best": 1000]])
        }
    }

    @Test func subqueryContainsAndExists() throws {
        try withTeamsAndPlayers { db throws in
            let reds = GenTeam.filter(Column("name") == "Reds").select(Column("id")).sqlSubquery
            let members = GenPlayer.filter(reds.contains(Column("teamId"))).select(Column("name"), as: String.self)
            let (sql, arguments) = try generated(db, members)
            #expect(sql == #"SELECT "name" FROM "player" WHERE "teamId" IN (SELECT "id" FROM "team" WHERE "name" = ?)"#)
            #expect(arguments == ["Reds"])
            #expect(try members.fetchAll(db) == ["Arthur", "Barbara"])

            let none = GenPlayer.filter(!reds.exists())
            #expect(try generated(db, none).0
                == #"SELECT * FROM "player" WHERE NOT EXISTS (SELECT "id" FROM "team" WHERE "name" = ?)"#)
            #expect(try none.fetchCount(db) == 0)
        }
    }

    @Test func literalSubqueryIsAnExpression() throws {
        try withTeamsAndPlayers { db throws in
            let blues = SQLRequest<Int>(sql: "SELECT id FROM team WHERE name = ?", arguments: ["Blues"]).sqlSubquery
            let request = GenPlayer.filter(blues.contains(Column("teamId"))).select(Column("name"), as: String.self)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "name" FROM "player" WHERE "teamId" IN (SELECT id FROM team WHERE name = ?)"#)
            #expect(arguments == ["Blues"])
            #expect(try request.fetchAll(db) == ["Craig"])
        }
    }

    @Test func allColumnsExcludingListsTheOtherColumns() throws {
        try withTeamsAndPlayers { db throws in
            let strings: AllColumnsExcluding = .allColumns(excluding: ["SCORE", "teamId"])
            let columns: AllColumnsExcluding = .allColumns(excluding: [Column("name")])
            let request = GenPlayer.select(strings).order(Column("id")).limit(1).asRequest(of: Row.self)
            #expect(try generated(db, request).0 == #"SELECT "id", "name" FROM "player" ORDER BY "id" LIMIT 1"#)
            #expect(try request.fetchOne(db) == ["id": 1, "name": "Arthur"])

            let other = Table("team").select(columns).order(Column("id")).asRequest(of: Row.self)
            #expect(try generated(db, other).0 == #"SELECT "id" FROM "team" ORDER BY "id""#)
            #expect(try other.fetchAll(db) == [["id": 1], ["id": 2], ["id": 3]])
        }
    }

    @Test func allColumnsExcludingOfAnAlias() throws {
        try withTeamsAndPlayers { db throws in
            let team = TableAlias(name: "t")
            let request = GenPlayer
                .joining(required: GenPlayer.belongsTo(GenTeam.self).aliased(team))
                .select(team[AllColumnsExcluding(["id"])], Column("name"))
                .order(Column("id"))
                .limit(2)
                .asRequest(of: Row.self)
            let (sql, _) = try generated(db, request)
            #expect(sql == """
                SELECT "t"."name", "player"."name" FROM "player" JOIN "team" "t" ON "t"."id" = "player"."teamId" \
                ORDER BY "player"."id" LIMIT 2
                """)
            #expect(try request.fetchAll(db) == [["name": "Reds", "name": "Arthur"], ["name": "Reds", "name": "Barbara"]])
        }
    }

    @Test func sequencesOfAnyExpressionsInterpolateAsLists() throws {
        try withTeamsAndPlayers { db throws in
            let custom: SQL = "SELECT name FROM player WHERE score IN \([BonusScore(points: 0), BonusScore(points: 900)]) ORDER BY id"
            let (sql, arguments) = try custom.build(db)
            #expect(sql == #"SELECT name FROM player WHERE score IN ("score" + ?,"score" + ?) ORDER BY id"#)
            #expect(arguments == [0, 900])
            #expect(try String.fetchAll(db, literal: custom) == ["Arthur", "Barbara", "Diane"])

            #expect(try scores(in: [100, 500]).build(db).sql == "SELECT name FROM player WHERE score IN (?,?) ORDER BY id")
            #expect(try String.fetchAll(db, literal: scores(in: [100, 500])) == ["Arthur", "Diane"])
            #expect(try scores(in: [Column("score")]).build(db).sql
                == #"SELECT name FROM player WHERE score IN ("score") ORDER BY id"#)
            #expect(try scores(in: [Int]()).build(db).sql
                == "SELECT name FROM player WHERE score IN (SELECT NULL WHERE NULL) ORDER BY id")
            #expect(try String.fetchAll(db, literal: scores(in: [Int]())).isEmpty)
        }
    }

    @Test func sequencesOfOptionalColumnsInterpolateAsLists() throws {
        try withTeamsAndPlayers { db throws in
            let columns: [Column?] = [Column("score"), nil]
            let query: SQL = "SELECT name FROM player WHERE score IN \(columns) ORDER BY id"
            let (sql, arguments) = try query.build(db)
            #expect(sql == #"SELECT name FROM player WHERE score IN ("score",NULL) ORDER BY id"#)
            #expect(arguments.isEmpty)
            #expect(try String.fetchAll(db, literal: query) == ["Arthur", "Barbara", "Diane"])
        }
    }
}
