import Foundation
import Testing
@testable import GRDBCipher

/// `belongsTo` and `hasOne` joined with `including` and `joining`: the SQL
/// (as GRDB 7.10 generates it) and the fetched rows.
@Suite struct ToOneAssociationSQLTests {
    @Test func includingRequiredIsAnInnerJoinThatSelectsBothTables() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.including(required: AssocPlayer.team)
            let trace = try queryInterfaceTrace(db) { _ = try Row.fetchAll(db, request) }
            #expect(trace == [#"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId""#])
            #expect(try Row.fetchAll(db, request).count == 2)
        }
    }

    @Test func includingOptionalIsALeftJoinWithScopes() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.including(optional: AssocPlayer.team).order(Column("id"))
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "player".*, "team".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "player"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.count == 3)
            #expect(rows[0].unscoped == ["id": 1, "teamId": 1, "name": "Arthur", "score": 100])
            #expect(rows[0].scopes["team"] == ["id": 1, "name": "Reds"])
            #expect(rows[2].scopes["team"] == ["id": nil, "name": nil])
            #expect(Array(rows[0].scopes.names) == ["team"])
        }
    }

    @Test func joiningSelectsOnlyTheMainTableAndHasNoScope() throws {
        try withAssociationDatabase { db throws in
            let required = AssocPlayer.joining(required: AssocPlayer.team)
            #expect(try generated(db, required).0 == #"SELECT "player".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId""#)
            let optional = AssocPlayer.joining(optional: AssocPlayer.team)
            #expect(try generated(db, optional).0 == #"SELECT "player".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId""#)
            let rows = try Row.fetchAll(db, required)
            #expect(rows.count == 2)
            #expect(rows[0].scopes.isEmpty)
            #expect(try optional.fetchAll(db).count == 3)
        }
    }

    @Test func conditionsOfTheAssociationGoToTheOnClause() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer
                .joining(required: AssocPlayer.team.filter(Column("name") == "Reds"))
                .filter(Column("score") > 10)
                .order(Column("name"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "player".* FROM "player" JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."name" = ?) WHERE "player"."score" > ? ORDER BY "player"."name""#)
            #expect(arguments == ["Reds", 10])
            #expect(try request.fetchAll(db).map(\.name) == ["Arthur", "Barbara"])

            let twoConditions = AssocPlayer.joining(required: AssocPlayer.team.filter(Column("name") == "Reds").filter(Column("id") > 0))
            #expect(try generated(db, twoConditions).0 == #"SELECT "player".* FROM "player" JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."name" = ?) AND ("team"."id" > ?)"#)

            let disjunction = AssocPlayer.joining(required: AssocPlayer.team.filter(Column("id") == 1 || Column("id") == 2))
            #expect(try generated(db, disjunction).0 == #"SELECT "player".* FROM "player" JOIN "team" ON ("team"."id" = "player"."teamId") AND (("team"."id" = ?) OR ("team"."id" = ?))"#)
        }
    }

    @Test func selectionAndOrderOfTheAssociation() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer
                .including(required: AssocPlayer.team.select(Column("name")).order(Column("name").desc))
                .order(Column("score"))
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "player".*, "team"."name" FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "player"."score", "team"."name" DESC"#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopes["team"]! } == [["name": "Reds"], ["name": "Reds"]])
            #expect(rows.map { $0["name"] as String } == ["Arthur", "Barbara"])

            let reversed = AssocPlayer
                .including(required: AssocPlayer.team.order(Column("name")))
                .order(Column("score"))
                .reversed()
            #expect(try generated(db, reversed).0 == #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "player"."score" DESC, "team"."name" DESC"#)
        }
    }

    @Test func hasOneJoinsTheTableWhoseForeignKeyPointsBack() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.including(optional: AssocTeam.captain).order(Column("id"))
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "team".*, "player".* FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" ORDER BY "team"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopes["captain"]?["name"] as String? } == ["Arthur", "Barbara", nil])

            // Without a key, the key is the singularized table name.
            let byDefault = try Row.fetchAll(db, AssocTeam.including(optional: AssocTeam.hasOne(AssocPlayer.self)))
            #expect(Array(byDefault[0].scopes.names) == ["player"])
        }
    }

    @Test func theSameTableJoinedTwiceIsNumbered() throws {
        try withAssociationDatabase { db throws in
            let request = AssocBook.including(required: AssocBook.author).including(optional: AssocBook.translator)
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "book".*, "person1".*, "person2".* FROM "book" JOIN "person" "person1" ON "person1"."id" = "book"."authorId" LEFT JOIN "person" "person2" ON "person2"."id" = "book"."translatorId""#)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes["author"]?["name"] == "Victor")
            #expect(row.scopes["translator"]?["name"] == "Anon")
        }
    }

    @Test func aSelfJoinNumbersBothTables() throws {
        try withAssociationDatabase { db throws in
            let request = AssocEmployee.including(optional: AssocEmployee.manager).order(Column("id"))
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "employee1".*, "employee2".* FROM "employee" "employee1" LEFT JOIN "employee" "employee2" ON "employee2"."id" = "employee1"."managerId" ORDER BY "employee1"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows[1]["name"] == "Worker")
            #expect(rows[1].scopes["manager"] == ["id": 1, "managerId": nil, "name": "Boss"])
        }
    }

    @Test func chainedAssociationsNestTheirScopes() throws {
        try withAssociationDatabase { db throws in
            let request = AssocBook.including(required: AssocBook.author.including(optional: AssocPerson.country))
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "book".*, "person".*, "country".* FROM "book" JOIN "person" ON "person"."id" = "book"."authorId" LEFT JOIN "country" ON "country"."code" = "person"."countryCode""#)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes["author"]?.unscoped == ["id": 1, "name": "Victor", "countryCode": "FR"])
            #expect(row.scopes["author"]?.scopes["country"] == ["code": "FR", "name": "France"])
            #expect(row.scopesTree["country"] == ["code": "FR", "name": "France"])
        }
    }

    @Test func aJoinedAssociationKeepsAnEmptyScopeForItsIncludedOnes() throws {
        try withAssociationDatabase { db throws in
            let request = AssocBook.joining(optional: AssocBook.author.including(optional: AssocPerson.country))
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "book".*, "country".* FROM "book" LEFT JOIN "person" ON "person"."id" = "book"."authorId" LEFT JOIN "country" ON "country"."code" = "person"."countryCode""#)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes["author"]?.isEmpty == true)
            #expect(row.scopesTree["country"] == ["code": "FR", "name": "France"])
        }
    }

    @Test func forKeyRenamesTheScope() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.including(optional: AssocPlayer.team.forKey("club"))
            #expect(try generated(db, request).0 == #"SELECT "player".*, "team".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId""#)
            let row = try #require(try Row.fetchOne(db, request.filter(Column("id") == 1)))
            #expect(Array(row.scopes.names) == ["club"])
        }
    }

    @Test func theSameAssociationJoinedTwiceIsMerged() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer
                .joining(optional: AssocPlayer.team.filter(Column("id") > 0))
                .including(required: AssocPlayer.team.filter(Column("name") != "x"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."id" > ?) AND ("team"."name" <> ?)"#)
            #expect(arguments == [0, "x"])
        }
    }

    @Test func distinctLimitGroupAndSingleResult() throws {
        try withAssociationDatabase { db throws in
            let limited = AssocPlayer.including(required: AssocPlayer.team).distinct().limit(2, offset: 1)
            #expect(try generated(db, limited).0 == #"SELECT DISTINCT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" LIMIT 2 OFFSET 1"#)

            let grouped = AssocPlayer.joining(required: AssocPlayer.team)
                .select(Column("teamId"), count(Column("id")))
                .group(Column("teamId"))
                .having(count(Column("id")) > 0)
            #expect(try generated(db, grouped).0 == #"SELECT "player"."teamId", COUNT("player"."id") FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" GROUP BY "player"."teamId" HAVING COUNT("player"."id") > ?"#)
            #expect(try Row.fetchAll(db, grouped) == [[ "teamId": 1, "COUNT(\"player\".\"id\")": 2]])

            let single = AssocPlayer.including(required: AssocPlayer.team)
            let trace = try queryInterfaceTrace(db) { _ = try Row.fetchOne(db, single) }
            #expect(trace == [#"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" LIMIT 1"#])
        }
    }

    @Test func countAndExistence() throws {
        try withAssociationDatabase { db throws in
            let required = AssocPlayer.including(required: AssocPlayer.team)
            var count = 0
            var trace = try queryInterfaceTrace(db) { count = try required.fetchCount(db) }
            #expect(count == 2)
            #expect(trace == [#"SELECT COUNT(*) FROM (SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId")"#])
            trace = try queryInterfaceTrace(db) { count = try AssocPlayer.including(optional: AssocPlayer.team).fetchCount(db) }
            #expect(count == 3)
            #expect(trace == [#"SELECT COUNT(*) FROM (SELECT "player".*, "team".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId")"#])
            var isEmpty = true
            trace = try queryInterfaceTrace(db) { isEmpty = try required.isEmpty(db) }
            #expect(isEmpty == false)
            #expect(trace == [#"SELECT EXISTS (SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId")"#])

            let teams = AssocTeam.filter(AssocPlayer.joining(required: AssocPlayer.team).exists())
            #expect(try generated(db, teams).0 == #"SELECT * FROM "team" WHERE EXISTS (SELECT "player".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId")"#)
        }
    }
}

/// Conditions on the keys of associated records.
@Suite struct AssociationKeyFilterTests {
    @Test func filterByKeyGoesToTheOnClause() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.joining(required: AssocPlayer.team.filter(key: 1))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "player".* FROM "player" JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."id" = ?)"#)
            #expect(arguments == [1])
            #expect(try request.fetchCount(db) == 2)
            #expect(try AssocPlayer.joining(required: AssocPlayer.team.filter(keys: [2, 3])).fetchCount(db) == 0)
            #expect(try AssocPlayer.joining(required: AssocPlayer.team.filter(key: ["id": 1])).fetchCount(db) == 2)
            let error = #expect(throws: DatabaseError.self) {
                _ = try AssocPlayer.joining(required: AssocPlayer.team.filter(key: ["name": "Reds"])).fetchCount(db)
            }
            #expect(error?.message == "table team has no unique key on column(s) name")
        }
    }
}
