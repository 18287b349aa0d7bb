import Foundation
import Testing
@testable import GRDBCipher

private typealias Player = Readme.Player
private typealias Team = Readme.Team
private typealias Country = Readme.Country
private typealias Citizenship = Readme.Citizenship

/// A record with a restricted default selection (README: "Columns Selected
/// by a Request").
private struct RestrictedPlayer: TableRecord, FetchableRecord, Decodable {
    static let databaseTableName = "player"
    var id: Int64
    var name: String?

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
    }

    static var databaseSelection: [any SQLSelectable] {
        [Columns.id, Columns.name]
    }
}

/// A record that selects all columns but a few.
private struct PlayerWithoutDetails: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [.allColumns(excluding: ["firstName", "lastName", "initial", "createdAt", "wins", "games"])]
    }
}

/// A record that selects all columns and the rowid.
private struct ExtendedPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [.allColumns, .rowID]
    }
}

/// Every example of the README's "Requests" chapter, written as the README
/// writes it: the SQL it generates (placeholders and bound arguments) and
/// what it fetches from an encrypted database.
@Suite struct ReadmeRequestsTests {
    @Test func requestsStartFromARecordTypeOrATable() throws {
        try withReadmeDatabase { db throws in
            let request = Player.filter { $0.email != nil }.order(\.name)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE "email" IS NOT NULL ORDER BY "name""#)
            #expect(arguments.isEmpty)
            #expect(try request.fetchAll(db).map(\.id) == [4, 1, 2])
            #expect(try request.fetchCount(db) == 3)

            #expect(try generated(db, Player.all()).0 == #"SELECT * FROM "player""#)
            #expect(try Player.all().fetchAll(db).count == 4)

            let rows = try Table("player").all().fetchAll(db)
            #expect(rows.count == 4)
            #expect(rows[0]["name"] == "Arthur")
            let players = try Table<Player>("player").all().fetchAll(db)
            #expect(players.map(\.id) == [1, 2, 3, 4])
        }
    }

    @Test func allAndNone() throws {
        try withReadmeDatabase { db throws in
            #expect(try generated(db, Player.all()).0 == #"SELECT * FROM "player""#)
            #expect(try Player.none().fetchAll(db).isEmpty)
            #expect(try Player.none().fetchCount(db) == 0)
            #expect(try Player.filter { $0.id == 1 }.none().fetchOne(db) == nil)
        }
    }

    @Test func selectAsAndDistinct() throws {
        try withReadmeDatabase { db throws in
            let names = Player.select(\.name, as: String.self)
            #expect(try generated(db, names).0 == #"SELECT "name" FROM "player""#)
            // Diane's NULL name can not be decoded as a String, as in GRDB.
            #expect(throws: RowDecodingError.self) { try names.fetchAll(db) }
            #expect(try names.filter(Player.Columns.name != nil).fetchAll(db) == ["Arthur", "Barbara", "Craig"])

            let teams = Player.select(\.team, as: String.self).distinct()
            #expect(try generated(db, teams).0 == #"SELECT DISTINCT "team" FROM "player""#)
            #expect(try Set(teams.fetchAll(db)) == ["Reds", "Blues"])
        }
    }

    @Test func annotatedWithAnExpression() throws {
        try withReadmeDatabase { db throws in
            let request = Player.annotated { ($0.score + $0.bonus).forKey("total") }
            #expect(try generated(db, request).0 == #"SELECT *, "score" + "bonus" AS "total" FROM "player""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["total"] as Int? } == [110, 1000, nil, 2005])
        }
    }

    @Test func filterWithExpressions() throws {
        try withReadmeDatabase { db throws in
            let inList = Player.filter { [1, 2, 3].contains($0.id) }
            var (sql, arguments) = try generated(db, inList)
            #expect(sql == #"SELECT * FROM "player" WHERE "id" IN (?, ?, ?)"#)
            #expect(arguments == [1, 2, 3])
            #expect(try readmePlayerIds(db, inList) == [1, 2, 3])

            let tall = Player.filter { $0.name != nil && $0.height > 1.75 }
            (sql, arguments) = try generated(db, tall)
            #expect(sql == #"SELECT * FROM "player" WHERE ("name" IS NOT NULL) AND ("height" > ?)"#)
            #expect(arguments == [1.75])
            #expect(try readmePlayerIds(db, tall) == [1, 3])
        }
    }

    @Test func filterByIdAndKey() throws {
        try withReadmeDatabase { db throws in
            var (sql, arguments) = try generated(db, Player.filter(id: 1))
            #expect(sql == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(arguments == [1])

            (sql, arguments) = try generated(db, Country.filter(ids: ["FR", "US"]))
            #expect(sql == #"SELECT * FROM "country" WHERE "isoCode" IN (?, ?)"#)
            #expect(arguments == ["FR", "US"])
            #expect(try Country.filter(ids: ["FR", "US"]).fetchAll(db).map(\.isoCode) == ["FR", "US"])

            (sql, arguments) = try generated(db, Player.filter(key: 1))
            #expect(sql == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(arguments == [1])

            (sql, arguments) = try generated(db, Country.filter(keys: ["FR", "US"]))
            #expect(sql == #"SELECT * FROM "country" WHERE "isoCode" IN (?, ?)"#)
            #expect(arguments == ["FR", "US"])

            let citizenship = Citizenship.filter(key: ["citizenId": 1, "countryCode": "FR"])
            (sql, arguments) = try generated(db, citizenship)
            #expect(sql == #"SELECT * FROM "citizenship" WHERE ("citizenId" = ?) AND ("countryCode" = ?)"#)
            #expect(arguments == [1, "FR"])
            #expect(try citizenship.fetchAll(db) == [Citizenship(citizenId: 1, countryCode: "FR")])

            let byEmail = Player.filter(key: ["email": "arthur@example.com"])
            (sql, arguments) = try generated(db, byEmail)
            #expect(sql == #"SELECT * FROM "player" WHERE "email" = ?"#)
            #expect(arguments == ["arthur@example.com"])
            #expect(try readmePlayerIds(db, byEmail) == [1])
        }
    }

    @Test func groupAndHaving() throws {
        try withReadmeDatabase { db throws in
            let grouped = Player.select { [$0.name, max($0.score)] }.group(\.name)
            #expect(try generated(db, grouped).0 == #"SELECT "name", MAX("score") FROM "player" GROUP BY "name""#)
            #expect(try Row.fetchAll(db, grouped).count == 4)

            let having = Player
                .select { [$0.team, max($0.score)] }
                .group(\.team)
                .having { min($0.score) >= 1000 }
            let (sql, arguments) = try generated(db, having)
            #expect(sql == #"SELECT "team", MAX("score") FROM "player" GROUP BY "team" HAVING MIN("score") >= ?"#)
            #expect(arguments == [1000])
            let rows = try Row.fetchAll(db, having)
            // Blues: MIN ignores Craig's NULL score, leaving Diane's 2000.
            #expect(rows.map { $0[0] as String } == ["Blues"])
            #expect(rows.map { $0[1] as Int } == [2000])
        }
    }

    @Test func orderWithKeyPathsAndClosures() throws {
        try withReadmeDatabase { db throws in
            #expect(try generated(db, Player.order(\.name)).0 == #"SELECT * FROM "player" ORDER BY "name""#)
            #expect(try readmePlayerIds(db, Player.order(\.name)) == [4, 1, 2, 3])

            #expect(try generated(db, Player.order(\.score.desc)).0 == #"SELECT * FROM "player" ORDER BY "score" DESC"#)
            #expect(try readmePlayerIds(db, Player.order(\.score.desc)) == [4, 2, 1, 3])

            let twoTerms = Player.order { [$0.score.desc, $0.name] }
            #expect(try generated(db, twoTerms).0 == #"SELECT * FROM "player" ORDER BY "score" DESC, "name""#)

            let nullsLast = Player.order(\.name.ascNullsLast)
            #expect(try generated(db, nullsLast).0 == #"SELECT * FROM "player" ORDER BY "name" ASC NULLS LAST"#)
            #expect(try readmePlayerIds(db, nullsLast) == [1, 2, 3, 4])

            let replaced = Player.order(\.score).order(\.name)
            #expect(try generated(db, replaced).0 == #"SELECT * FROM "player" ORDER BY "name""#)
        }
    }

    @Test func reversed() throws {
        try withReadmeDatabase { db throws in
            let request = Player.order { [$0.score.desc, $0.name] }.reversed()
            #expect(try generated(db, request).0 == #"SELECT * FROM "player" ORDER BY "score" ASC, "name" DESC"#)
            #expect(try readmePlayerIds(db, request) == [3, 1, 2, 4])

            #expect(try generated(db, Player.all().reversed()).0 == #"SELECT * FROM "player""#)
        }
    }

    @Test func limit() throws {
        try withReadmeDatabase { db throws in
            #expect(try generated(db, Player.limit(5)).0 == #"SELECT * FROM "player" LIMIT 5"#)
            #expect(try generated(db, Player.limit(5, offset: 10)).0 == #"SELECT * FROM "player" LIMIT 5 OFFSET 10"#)
            #expect(try readmePlayerIds(db, Player.limit(2, offset: 1)) == [2, 3])
        }
    }

    @Test func withACommonTableExpression() throws {
        try withReadmeDatabase { db throws in
            let cte = CommonTableExpression(named: "bestScore", sql: "SELECT MAX(score) FROM player")
            let request = Player.with(cte).filter { $0.score == cte.all() }
            let (sql, _) = try generated(db, request)
            #expect(sql == #"""
                WITH "bestScore" AS (SELECT MAX(score) FROM player) \#
                SELECT * FROM "player" WHERE "score" = (SELECT * FROM "bestScore")
                """#)
            #expect(try readmePlayerIds(db, request) == [4])
        }
    }

    @Test func refiningRequestsByChaining() throws {
        try withReadmeDatabase { db throws in
            let request = Player.order(\.name).filter { $0.email != nil }
            #expect(try generated(db, request).0 == #"SELECT * FROM "player" WHERE "email" IS NOT NULL ORDER BY "name""#)

            let chained = Player
                .filter { $0.name != nil }
                .filter { $0.email != nil }
                .order(\.name)
                .reversed()
                .order(\.score)
                .limit(20, offset: 40)
                .limit(10)
            #expect(try generated(db, chained).0 == #"""
                SELECT * FROM "player" WHERE ("name" IS NOT NULL) AND ("email" IS NOT NULL) \#
                ORDER BY "score" LIMIT 10
                """#)
            #expect(try readmePlayerIds(db, chained) == [1, 2])
        }
    }

    @Test func rawSQLSnippets() throws {
        try withReadmeDatabase { db throws in
            let request = Player
                .select(sql: "DATE(createdAt), COUNT(*)")
                .filter(sql: "name = ?", arguments: ["Arthur"])
                .group(sql: "DATE(createdAt)")
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT DATE(createdAt), COUNT(*) FROM "player" WHERE name = ? GROUP BY DATE(createdAt)"#)
            #expect(arguments == ["Arthur"])
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row[0] == "2020-01-23")
            #expect(row[1] == 1)
        }
    }

    @Test func columnsSelectedByARequest() throws {
        try withReadmeDatabase { db throws in
            let maxScore = Player.select { max($0.score) }
            #expect(try generated(db, maxScore).0 == #"SELECT MAX("score") FROM "player""#)
            #expect(try Int.fetchOne(db, maxScore) == 2000)
            #expect(try Player.select({ max($0.score) }, as: Int.self).fetchOne(db) == 2000)

            #expect(try generated(db, RestrictedPlayer.all()).0 == #"SELECT "id", "name" FROM "player""#)
            #expect(try RestrictedPlayer.fetchAll(db).map(\.name) == ["Arthur", "Barbara", "Craig", nil])

            #expect(try generated(db, PlayerWithoutDetails.all()).0 == #"""
                SELECT "id", "name", "email", "score", "bonus", "team", "teamId", "coachId", "height", \#
                "isVerified" FROM "player"
                """#)
            #expect(try generated(db, ExtendedPlayer.all()).0 == #"SELECT *, "rowid" FROM "player""#)
            #expect(try Table("player").all().fetchAll(db).count == 4)
        }
    }
}
