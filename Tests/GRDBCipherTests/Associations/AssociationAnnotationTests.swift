import Foundation
import Testing
@testable import GRDBCipher

/// `annotated(withRequired:)` and `annotated(withOptional:)`, with the SQL
/// GRDB 7.10 generates.
@Suite struct AssociationAnnotationTests {
    private struct PlayerInfo: Decodable, FetchableRecord {
        var player: AssocPlayer
        var teamName: String?
    }

    @Test func requiredAnnotation() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.annotated(withRequired: AssocPlayer.team.select(Column("name").forKey("teamName")))
            #expect(try generated(db, request).0 == #"SELECT "player".*, "team"."name" AS "teamName" FROM "player" JOIN "team" ON "team"."id" = "player"."teamId""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.first == ["id": 1, "teamId": 1, "name": "Arthur", "score": 100, "teamName": "Reds"])
            #expect(rows.first?.scopes.isEmpty == true)
            #expect(try PlayerInfo.fetchAll(db, request).map(\.teamName) == ["Reds", "Reds"])
        }
    }

    @Test func optionalAnnotation() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.annotated(withOptional: AssocPlayer.team.select(Column("name").forKey("teamName"), Column("id")))
            #expect(try generated(db, request).0 == #"SELECT "player".*, "team"."name" AS "teamName", "team"."id" FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId""#)
            let infos = try PlayerInfo.fetchAll(db, request.order(Column("id")))
            #expect(infos.map(\.teamName) == ["Reds", "Reds", nil])
        }
    }

    @Test func annotationAndInclusionOfTheSameAssociation() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer
                .annotated(withOptional: AssocPlayer.team.select(Column("name").forKey("teamName")).filter(Column("id") > 0))
                .including(optional: AssocPlayer.team)
            #expect(try generated(db, request).0 == #"SELECT "player".*, "team"."name" AS "teamName", "team".* FROM "player" LEFT JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."id" > ?)"#)
            let row = try #require(try Row.fetchOne(db, request.filter(Column("id") == 1)))
            #expect(row.unscoped == ["id": 1, "teamId": 1, "name": "Arthur", "score": 100, "teamName": "Reds"])
            #expect(row.scopes["team"] == ["id": 1, "name": "Reds"])

            let nested = AssocPlayer.annotated(withRequired: AssocPlayer.team
                .select(Column("name").forKey("teamName"))
                .including(optional: AssocTeam.captain))
            #expect(try generated(db, nested).0 == #"SELECT "player1".*, "team"."name" AS "teamName", "player2".* FROM "player" "player1" JOIN "team" ON "team"."id" = "player1"."teamId" LEFT JOIN "player" "player2" ON "player2"."teamId" = "team"."id""#)
            #expect(try Row.fetchAll(db, nested).count == 4)
        }
    }
}
