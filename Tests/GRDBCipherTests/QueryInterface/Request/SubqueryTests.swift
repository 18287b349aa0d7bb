import Foundation
import Testing
@testable import GRDBCipher

/// Requests used as expressions: compared, tested for membership and for
/// existence, with the SQL GRDB generates.
@Suite struct SubqueryTests {
    @Test func requestComparedAsAValue() throws {
        try withTeamsAndPlayers { db throws in
            let maxScore = GenPlayer.select(SQL("MAX(score)").sqlExpression)
            let request = GenPlayer.filter(Column("score") == maxScore)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE "score" = (SELECT MAX(score) FROM "player")"#)
            #expect(arguments.isEmpty)
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara"])
        }
    }

    @Test func requestContainsAValue() throws {
        try withTeamsAndPlayers { db throws in
            let teamIds = GenPlayer.filter(Column("score") > 50).select(Column("teamId"))
            let request = GenTeam.filter(teamIds.contains(Column("id")))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "team" WHERE "id" IN (SELECT "teamId" FROM "player" WHERE "score" > ?)"#)
            #expect(arguments == [50])
            #expect(try request.fetchAll(db).map(\.name) == ["Reds"])
            let others = GenTeam.filter(!teamIds.contains(Column("id")))
            #expect(try generated(db, others).0
                == #"SELECT * FROM "team" WHERE "id" NOT IN (SELECT "teamId" FROM "player" WHERE "score" > ?)"#)
            // NOT IN a subquery that returns NULL matches nothing, as in SQLite.
            #expect(try others.fetchAll(db).isEmpty)
        }
    }

    @Test func argumentsOfSubqueriesFollowTheirPlaceholders() throws {
        try withTeamsAndPlayers { db throws in
            let named = GenTeam.filter(Column("name") != "Greens").select(Column("id"))
            let request = GenPlayer
                .filter(Column("score") > 10)
                .filter(named.contains(Column("teamId")))
                .filter(Column("name") != "Arthur")
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE ("score" > ?) AND ("teamId" IN (SELECT "id" FROM "team" WHERE "name" <> ?)) AND ("name" <> ?)"#)
            #expect(arguments == [10, "Greens", "Arthur"])
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara"])
        }
    }

    @Test func existsAndIsEmpty() throws {
        try withTeamsAndPlayers { db throws in
            let rich = GenPlayer.filter(Column("score") > 900)
            let request = GenTeam.filter(rich.exists())
            #expect(try generated(db, request).0
                == #"SELECT * FROM "team" WHERE EXISTS (SELECT * FROM "player" WHERE "score" > ?)"#)
            #expect(try request.fetchCount(db) == 3)
            #expect(try GenTeam.filter(!GenPlayer.filter(Column("score") > 5000).exists()).fetchCount(db) == 3)
            #expect(try !rich.isEmpty(db))
        }
    }

    @Test func sqlRequestAsASubquery() throws {
        try withTeamsAndPlayers { db throws in
            let ids: SQLRequest<Int64> = "SELECT teamId FROM player WHERE name = \("Craig")"
            let request = GenTeam.filter(ids.contains(Column("id")))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "team" WHERE "id" IN (SELECT teamId FROM player WHERE name = ?)"#)
            #expect(arguments == ["Craig"])
            #expect(try request.fetchAll(db).map(\.name) == ["Blues"])
        }
    }

    @Test func subqueryWithTheWrongColumnCountIsADatabaseError() throws {
        try withTeamsAndPlayers { db throws in
            let twoColumns = GenPlayer.select(Column("id"), Column("name"))
            let request = GenTeam.filter(twoColumns.contains(Column("id")))
            let error = #expect(throws: DatabaseError.self) { try request.fetchAll(db) }
            #expect(error?.sql?.contains("IN (SELECT") == true)
        }
    }

    @Test func subqueryAsASelectedValue() throws {
        try withTeamsAndPlayers { db throws in
            let count = GenPlayer.filter(sql: "teamId = team.id").select(SQL("COUNT(*)").sqlExpression)
            let request = GenTeam.annotated(with: count.forKey("playerCount")).order(Column("id"))
            #expect(try generated(db, request).0
                == #"SELECT *, (SELECT COUNT(*) FROM "player" WHERE teamId = team.id) AS "playerCount" FROM "team" ORDER BY "id""#)
            #expect(try Row.fetchAll(db, request).map { $0["playerCount"] as Int } == [2, 1, 0])
        }
    }
}
