import Foundation
import Testing
@testable import GRDBCipher

/// Association aggregates: `annotated(with:)` and `having(_:)`, with the
/// SQL GRDB 7.10 generates.
@Suite struct AssociationAggregateTests {
    private struct TeamInfo: Decodable, FetchableRecord {
        var team: AssocTeam
        var playerCount: Int
        var hasNoPlayer: Bool
    }

    @Test func countAndIsEmpty() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.annotated(with: AssocTeam.players.count, AssocTeam.players.isEmpty)
            #expect(try generated(db, request).0 == #"SELECT "team".*, COUNT(DISTINCT "player"."id") AS "playerCount", COUNT(DISTINCT "player"."id") = 0 AS "hasNoPlayer" FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows == [
                ["id": 1, "name": "Reds", "playerCount": 2, "hasNoPlayer": 0],
                ["id": 2, "name": "Blues", "playerCount": 0, "hasNoPlayer": 1],
            ])
            let infos = try TeamInfo.fetchAll(db, request)
            #expect(infos.map(\.playerCount) == [2, 0])
            #expect(infos.map(\.hasNoPlayer) == [false, true])
        }
    }

    @Test func havingIsEmptyAndItsNegation() throws {
        try withAssociationDatabase { db throws in
            let empty = AssocTeam.having(AssocTeam.players.isEmpty)
            #expect(try generated(db, empty).0 == #"SELECT "team".* FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") = 0"#)
            #expect(try empty.fetchAll(db).map(\.name) == ["Blues"])

            let notEmpty = AssocTeam.having(!AssocTeam.players.isEmpty)
            #expect(try generated(db, notEmpty).0 == #"SELECT "team".* FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") > 0"#)
            #expect(try notEmpty.fetchAll(db).map(\.name) == ["Reds"])
        }
    }

    @Test func functionsAreNamedAfterTheAssociationAndTheColumn() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.annotated(with:
                AssocTeam.players.isEmpty,
                AssocTeam.players.min(Column("score")),
                AssocTeam.players.average(Column("score")),
                AssocTeam.players.total(Column("score")))
            #expect(try generated(db, request).0 == #"SELECT "team".*, COUNT(DISTINCT "player"."id") = 0 AS "hasNoPlayer", MIN("player"."score") AS "minPlayerScore", AVG("player"."score") AS "averagePlayerScore", TOTAL("player"."score") AS "playerScoreSum" FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id""#)
            let reds = try #require(try Row.fetchOne(db, request.filter(Column("id") == 1)))
            #expect(reds["minPlayerScore"] == 100)
            #expect(reds["averagePlayerScore"] == 150.0)

            let named = AssocTeam.annotated(with: AssocTeam.players.max(Column("score")), AssocTeam.players.count.forKey("n"))
            #expect(try generated(db, named).0 == #"SELECT "team".*, MAX("player"."score") AS "maxPlayerScore", COUNT(DISTINCT "player"."id") AS "n" FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id""#)

            let sum = AssocTeam.having(AssocTeam.players.count > 1).annotated(with: AssocTeam.players.sum(Column("score")))
            #expect(try generated(db, sum).0 == #"SELECT "team".*, SUM("player"."score") AS "playerScoreSum" FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") > ?"#)
            #expect(try Row.fetchAll(db, sum) == [["id": 1, "name": "Reds", "playerScoreSum": 300]])
        }
    }

    @Test func aggregatesWithConditionsOrderAndOtherJoins() throws {
        try withAssociationDatabase { db throws in
            let ordered = AssocTeam.annotated(with: AssocTeam.players.count).filter(Column("id") > 0).order(Column("name"))
            #expect(try generated(db, ordered).0 == #"SELECT "team".*, COUNT(DISTINCT "player"."id") AS "playerCount" FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" WHERE "team"."id" > ? GROUP BY "team"."id" ORDER BY "team"."name""#)

            let combined = AssocTeam.having(AssocTeam.players.count >= 2 && AssocTeam.players.max(Column("score")) < 1000)
            #expect(try generated(db, combined).0 == #"SELECT "team".* FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id" HAVING (COUNT(DISTINCT "player"."id") >= ?) AND (MAX("player"."score") < ?)"#)
            #expect(try combined.fetchAll(db).map(\.name) == ["Reds"])

            let filtered = AssocTeam.annotated(with: AssocTeam.players.filter(Column("score") > 100).forKey("goodPlayers").count)
            #expect(try generated(db, filtered).0 == #"SELECT "team".*, COUNT(DISTINCT "player"."id") AS "goodPlayerCount" FROM "team" LEFT JOIN "player" ON ("player"."teamId" = "team"."id") AND ("player"."score" > ?) GROUP BY "team"."id""#)
            #expect(try Row.fetchAll(db, filtered).map { $0["goodPlayerCount"] as Int } == [1, 0])

            let withCaptain = AssocTeam.including(required: AssocTeam.captain).annotated(with: AssocTeam.players.count)
            #expect(try generated(db, withCaptain).0 == #"SELECT "team".*, COUNT(DISTINCT "player2"."id") AS "playerCount", "player1".* FROM "team" JOIN "player" "player1" ON "player1"."teamId" = "team"."id" LEFT JOIN "player" "player2" ON "player2"."teamId" = "team"."id" GROUP BY "team"."id""#)
        }
    }

    @Test func tablesWithoutRowIDAliasAreGroupedByRowID() throws {
        try withAssociationDatabase { db throws in
            let request = AssocCountry.annotated(with: AssocCountry.hasMany(AssocPerson.self).count)
            #expect(try generated(db, request).0 == #"SELECT "country".*, COUNT(DISTINCT "person"."id") AS "personCount" FROM "country" LEFT JOIN "person" ON "person"."countryCode" = "country"."code" GROUP BY "country"."rowid""#)
            #expect(try Row.fetchAll(db, request) == [["code": "FR", "name": "France", "personCount": 1]])
        }
    }
}
