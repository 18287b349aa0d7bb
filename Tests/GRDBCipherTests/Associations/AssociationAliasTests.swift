import Foundation
import Testing
@testable import GRDBCipher

/// Table aliases in requests with associations: filtering and ordering on
/// joined tables, named aliases, and correlated subqueries (SQL as GRDB
/// 7.10 generates it).
@Suite struct AssociationAliasTests {
    @Test func anAliasQualifiesTheColumnsOfAJoinedTable() throws {
        try withAssociationDatabase { db throws in
            let team = TableAlias()
            let request = AssocPlayer
                .joining(required: AssocPlayer.team.aliased(team))
                .filter(team[Column("name")] == "Reds")
                .order(team[Column("name")], Column("score"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "player".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" WHERE "team"."name" = ? ORDER BY "team"."name", "player"."score""#)
            #expect(arguments == ["Reds"])
            #expect(try request.fetchAll(db).map(\.name) == ["Arthur", "Barbara"])
        }
    }

    @Test func anAliasOfTheMainTable() throws {
        try withAssociationDatabase { db throws in
            let player = TableAlias()
            let request = AssocPlayer.aliased(player)
                .including(required: AssocPlayer.team)
                .filter(player[Column("score")] > 150)
            #expect(try generated(db, request).0 == #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" WHERE "player"."score" > ?"#)
            #expect(try Row.fetchAll(db, request).map { $0["name"] as String } == ["Barbara"])
        }
    }

    @Test func namedAliasesAreUsedAsWritten() throws {
        try withAssociationDatabase { db throws in
            let t = TableAlias(name: "t")
            let p = TableAlias(name: "p")
            let request = AssocPlayer.aliased(p)
                .including(required: AssocPlayer.team.aliased(t))
                .filter(sql: "t.name = ?", arguments: ["Reds"])
            #expect(try generated(db, request).0 == #"SELECT "p".*, "t".* FROM "player" "p" JOIN "team" "t" ON "t"."id" = "p"."teamId" WHERE t.name = ?"#)
            #expect(try Row.fetchAll(db, request).count == 2)

            // A named alias takes its name: the joined table is numbered.
            let taken = AssocPlayer.aliased(TableAlias(name: "team")).including(required: AssocPlayer.team)
            #expect(try generated(db, taken).0 == #"SELECT "team".*, "team1".* FROM "player" "team" JOIN "team" "team1" ON "team1"."id" = "team"."teamId""#)
            #expect(try Row.fetchAll(db, taken).count == 2)
        }
    }

    @Test func aSubqueryCanReferToAJoinedTable() throws {
        try withAssociationDatabase { db throws in
            let team = TableAlias()
            let request = AssocPlayer
                .joining(required: AssocPlayer.team.aliased(team))
                .filter(AssocPlayer.filter(Column("teamId") == team[Column("id")]).exists())
            #expect(try generated(db, request).0 == #"SELECT "player".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" WHERE EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")"#)
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func typedAliasesExposeTheRecordComponents() throws {
        try withAssociationDatabase { db throws in
            let team = TableAlias<AssocTeam>()
            let request = AssocPlayer
                .joining(optional: AssocPlayer.team.aliased(team))
                .order(team[Column("name")].ascNullsLast, Column("name"))
            #expect(try generated(db, request).0 == #"SELECT "player".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "team"."name" ASC NULLS LAST, "player"."name""#)
            #expect(try request.fetchAll(db).map(\.name) == ["Arthur", "Barbara", "Craig"])
        }
    }
}
