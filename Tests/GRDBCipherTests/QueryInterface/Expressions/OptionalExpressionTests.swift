import Foundation
import Testing
@testable import GRDBCipher

/// Optional columns and expressions are expressions, selections and
/// orderings: the wrapped one, or NULL when nil, as in GRDB.
@Suite struct OptionalExpressionTests {
    @Test func optionalColumnOrdersLikeTheColumn() throws {
        try withTeamsAndPlayers { db throws in
            let score: Column? = Column("score")
            let name: Column? = Column("name")
            let request = GenPlayer.order(score.desc, name.asc)
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "player" ORDER BY "score" DESC, "name" ASC"#)
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Diane", "Arthur", "Craig"])

            let nullsRequest = GenPlayer.order(score.ascNullsLast, name.descNullsFirst)
            #expect(try generated(db, nullsRequest).0
                == #"SELECT * FROM "player" ORDER BY "score" ASC NULLS LAST, "name" DESC NULLS FIRST"#)
            #expect(try nullsRequest.fetchAll(db).map(\.name) == ["Arthur", "Diane", "Barbara", "Craig"])
        }
    }

    @Test func optionalColumnIsAnOrderingTermAndASelection() throws {
        try withTeamsAndPlayers { db throws in
            let name: Column? = Column("name")
            let missing: Column? = nil
            let request = GenPlayer.select(name, missing).order(name).asRequest(of: Row.self)
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "name", NULL FROM "player" ORDER BY "name""#)
            let rows = try request.fetchAll(db)
            #expect(rows.first == ["name": "Arthur", "NULL": nil])
            #expect(rows.count == 4)
        }
    }

    @Test func nilOrderingIsNull() throws {
        try withTeamsAndPlayers { db throws in
            let ordering: SQLOrdering? = nil
            let request = GenPlayer.order(ordering, Column("id").desc)
            #expect(try generated(db, request).0 == #"SELECT * FROM "player" ORDER BY NULL, "id" DESC"#)
            #expect(try request.fetchAll(db).map(\.id) == [4, 3, 2, 1])
        }
    }

    @Test func optionalColumnHasTheStringOperators() throws {
        try withTeamsAndPlayers { db throws in
            let name: Column? = Column("name")
            let request = GenPlayer
                .filter(name.like("%a%"))
                .order(name.collating(.nocase).desc)
                .select(name.uppercased, as: String.self)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT swiftUppercaseString("name") FROM "player" WHERE "name" LIKE ? ORDER BY "name" COLLATE NOCASE DESC"#)
            #expect(arguments == ["%a%"])
            #expect(try request.fetchAll(db) == ["DIANE", "CRAIG", "BARBARA", "ARTHUR"])
        }
    }

    @Test func optionalColumnIsFilteredAndNegated() throws {
        try withTeamsAndPlayers { db throws in
            let score: Column? = Column("score")
            let request = GenPlayer.filter(!(score > 200)).select(Column("name"), as: String.self).order(Column("id"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "name" FROM "player" WHERE NOT ("score" > ?) ORDER BY "id""#)
            #expect(arguments == [200])
            #expect(try request.fetchAll(db) == ["Arthur"])
        }
    }

    @Test func swiftNilCoalescingStillUnwrapsOptionals() {
        let column: Column? = nil
        let unwrapped: Column = column ?? Column("fallback")
        #expect(unwrapped.name == "fallback")
        let dbValue: DatabaseValue? = nil
        #expect((dbValue ?? 1.databaseValue) == 1.databaseValue)
    }

    @Test func sqlIfNullStillApplies() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.select(Column("score") ?? 0, as: Int.self).order(Column("id"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT IFNULL("score", ?) FROM "player" ORDER BY "id""#)
            #expect(arguments == [0])
            #expect(try request.fetchAll(db) == [100, 1000, 0, 500])

            // An optional column with a fallback is IFNULL, as in GRDB.
            let optional: Column? = Column("score")
            let ifNull: SQLExpression = optional ?? Column("id")
            let fallback = GenPlayer.select(ifNull, as: Int.self).order(Column("id"))
            let fallbackSQL = try generated(db, fallback).0
            #expect(fallbackSQL == #"SELECT IFNULL("score", "id") FROM "player" ORDER BY "id""#)
            #expect(try fallback.fetchAll(db) == [100, 1000, 3, 500])
        }
    }

    @Test func optionalDatabaseValueBuildsToABoundValue() throws {
        let some: DatabaseValue? = 1.databaseValue
        let none: DatabaseValue? = nil
        let literal: SQL = "SELECT \(some), \(none)"
        try inEncryptedDatabase { db throws in
            let (sql, arguments) = try literal.build(db)
            #expect(sql == "SELECT ?, NULL")
            #expect(arguments == [1])
        }
    }
}
