import Foundation
import Testing
@testable import GRDBCipher

/// Table aliases: named aliases are always written, anonymous ones only
/// when a subquery refers to the enclosing request, as GRDB writes them.
@Suite struct TableAliasTests {
    @Test func anonymousAliasOnASingleTableIsNotWritten() throws {
        try withTeamsAndPlayers { db throws in
            let alias = TableAlias()
            let request = GenPlayer.aliased(alias).filter(alias[Column("score")] > 200).order(alias["name"])
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE "score" > ? ORDER BY "name""#)
            #expect(arguments == [200])
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Diane"])
        }
    }

    @Test func namedAliasQualifiesEveryColumn() throws {
        try withTeamsAndPlayers { db throws in
            let p = TableAlias(name: "p")
            let request = GenPlayer.all()
                .aliased(p)
                .filter(Column("teamId") == 1)
                .filter(p[Column("score")] > 200)
                .order(p[Column("name").desc])
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "p".* FROM "player" "p" WHERE ("p"."teamId" = ?) AND ("p"."score" > ?) ORDER BY "p"."name" DESC"#)
            #expect(arguments == [1, 200])
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara"])
            #expect(try request.fetchCount(db) == 1)
        }
    }

    @Test func aliasNamedLikeItsTableIsNotRepeatedInFrom() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.aliased(TableAlias(name: "player")).select(Column("name"), as: String.self)
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "player"."name" FROM "player""#)
            #expect(try request.fetchAll(db).count == 4)
        }
    }

    @Test func recordAliasExposesTheRecordColumns() throws {
        try withTeamsAndPlayers { db throws in
            let p = TableAlias<GenPlayer>(name: "p")
            let request = GenPlayer.aliased(p).filter(p.name == "Craig").select(p[AllColumns()], p.score)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "p".*, "p"."score" FROM "player" "p" WHERE "p"."name" = ?"#)
            #expect(arguments == ["Craig"])
            #expect(try Row.fetchOne(db, request)?["id"] == 3)
        }
    }

    @Test func aliasesCompareByIdentity() {
        let a = TableAlias(name: "t")
        let b = TableAlias(name: "t")
        #expect(a == a)
        #expect(a != b)
        #expect(Set<TableAliasBase>([a, b, a]).count == 2)
    }

    @Test func correlatedSubqueryQualifiesTheOuterTable() throws {
        try withTeamsAndPlayers { db throws in
            let team = TableAlias()
            let players = GenPlayer.filter(Column("teamId") == team[Column("id")])
            let request = GenTeam.aliased(team).filter(players.exists()).order(Column("id"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "team" WHERE EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id") ORDER BY "id""#)
            #expect(arguments.isEmpty)
            #expect(try request.fetchAll(db).map(\.name) == ["Reds", "Blues"])
            // A named outer alias keeps its name in the subquery.
            let t = TableAlias(name: "t")
            let named = GenTeam.aliased(t).filter(!GenPlayer.filter(Column("teamId") == t["id"]).exists())
            let (namedSQL, _) = try generated(db, named)
            #expect(namedSQL == #"SELECT "t".* FROM "team" "t" WHERE NOT EXISTS (SELECT * FROM "player" WHERE "teamId" = "t"."id")"#)
            #expect(try named.fetchAll(db).map(\.name) == ["Greens"])
        }
    }

    @Test func aliasOutsideOfItsRequestThrows() throws {
        try withTeamsAndPlayers { db throws in
            let stray = TableAlias()
            let request = GenPlayer.filter(stray[Column("id")] == 1)
            #expect(throws: DatabaseError.self) { try request.fetchAll(db) }
        }
    }
}
