import Foundation
import Testing
@testable import GRDBCipher

private typealias Player = Readme.Player
private typealias Country = Readme.Country
private typealias Citizenship = Readme.Citizenship
private typealias Document = Readme.Document

extension Readme.Player {
    /// The README's custom request built from raw SQL.
    static func filter(team: String) -> SQLRequest<Readme.Player> {
        SQLRequest<Readme.Player>(
            sql: "SELECT * FROM player WHERE team = ?",
            arguments: [team])
    }

    /// The README's custom request built with SQL interpolation.
    static func filter(teamLiteral team: String) -> SQLRequest<Readme.Player> {
        "SELECT * FROM player WHERE team = \(team)"
    }
}

/// The README's chapters "Fetching from Requests", "Fetching by Key",
/// "Testing for Record Existence", "Fetching Aggregated Values", "Delete
/// Requests" and "Custom Requests", on an encrypted database.
@Suite struct ReadmeFetchingTests {
    @Test func fetchingFromRequests() throws {
        try withReadmeDatabase { db throws in
            let request = Player.filter { $0.team == "Reds" }
            #expect(try request.fetchCursor(db).map(\.id).reduce(0, +) == 3)
            #expect(try request.fetchAll(db).map(\.id) == [1, 2])
            #expect(try request.fetchSet(db).map(\.id).sorted() == [1, 2])
            #expect(try request.fetchOne(db)?.id == 1)

            #expect(try Player.fetchAll(db).count == 4)
            let sql = try queryInterfaceTrace(db) { () throws in
                let arthur = try Player.filter { $0.name == "Arthur" }.fetchOne(db)
                #expect(arthur?.email == "arthur@example.com")
            }
            #expect(sql == [#"SELECT * FROM "player" WHERE "name" = ? LIMIT 1"#])
        }
    }

    @Test func fetchingOtherValuesFromRequests() throws {
        try withReadmeDatabase { db throws in
            let maxScoreRequest = Player.select { max($0.score) }
            #expect(try Int.fetchOne(db, maxScoreRequest) == 2000)

            let minMaxRequest = Player.select { [min($0.score), max($0.score)] }
            let row = try #require(try Row.fetchOne(db, minMaxRequest))
            #expect(row[0] as Int? == 100)
            #expect(row[1] as Int? == 2000)

            let typed = Player.select({ max($0.score) }, as: Int.self)
            #expect(try typed.fetchOne(db) == 2000)

            let rows = Player.filter(id: 1).asRequest(of: Row.self)
            #expect(try rows.fetchOne(db)?["name"] == "Arthur")
        }
    }

    @Test func fetchingByIdAndKey() throws {
        try withReadmeDatabase { db throws in
            #expect(try Player.find(db, id: 1).name == "Arthur")
            #expect(try Player.fetchOne(db, id: 1)?.name == "Arthur")
            #expect(try Player.fetchOne(db, id: 42) == nil)
            #expect(try Country.fetchAll(db, ids: ["FR", "US"]).map(\.name) == ["France", "United States"])
            #expect(try Country.fetchSet(db, ids: ["FR", "XX"]).map(\.name) == ["France"])

            #expect(try Player.find(db, key: 1).name == "Arthur")
            #expect(try Player.fetchOne(db, key: 1)?.name == "Arthur")
            #expect(try Country.fetchAll(db, keys: ["FR", "US"]).map(\.isoCode) == ["FR", "US"])
            #expect(try Player.fetchOne(db, key: ["email": "arthur@example.com"])?.id == 1)
            #expect(try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "FR"])
                == Citizenship(citizenId: 1, countryCode: "FR"))

            let sql = try queryInterfaceTrace(db) { () throws in
                #expect(try Document.fetchOne(db, key: 1)?.title == "A")
            }
            #expect(sql == [#"SELECT * FROM "document" WHERE "rowid" = ?"#])
        }
    }

    @Test func fetchingByKeyGeneratesOneStatementEach() throws {
        try withReadmeDatabase { db throws in
            let sql = try queryInterfaceTrace(db) { () throws in
                _ = try Player.fetchOne(db, id: 1)
                _ = try Country.fetchAll(db, ids: ["FR", "US"])
                _ = try Citizenship.fetchOne(db, key: ["countryCode": "FR", "citizenId": 1])
            }
            #expect(sql == [
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"SELECT * FROM "country" WHERE "isoCode" IN (?, ?)"#,
                #"SELECT * FROM "citizenship" WHERE ("citizenId" = ?) AND ("countryCode" = ?)"#,
            ])
        }
    }

    @Test func buildingKeyRequestsToFetchLater() throws {
        try withReadmeDatabase { db throws in
            #expect(try Player.filter(id: 1).fetchOne(db)?.name == "Arthur")
            #expect(try Country.filter(ids: ["FR", "US"]).fetchCount(db) == 2)
            #expect(try Player.filter(key: ["email": "arthur@example.com"]).fetchOne(db)?.id == 1)
            #expect(try Citizenship.filter(key: ["citizenId": 1, "countryCode": "FR"]).fetchCount(db) == 1)
        }
    }

    @Test func testingForRecordExistence() throws {
        try withReadmeDatabase { db throws in
            let request = Player.filter { $0.score > 5000 }
            let sql = try queryInterfaceTrace(db) { () throws in
                #expect(try request.isEmpty(db))
                #expect(try request.fetchCount(db) == 0)
            }
            #expect(sql == [
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "score" > ?)"#,
                #"SELECT COUNT(*) FROM "player" WHERE "score" > ?"#,
            ])
            #expect(try !Player.filter { $0.score > 500 }.isEmpty(db))

            #expect(try Player.exists(db, id: 1))
            #expect(try !Player.exists(db, id: 42))
            #expect(try Country.exists(db, id: "FR"))
            #expect(try Player.exists(db, key: 1))
            #expect(try Country.exists(db, key: "FR"))
            #expect(try !Country.exists(db, key: "XX"))
            #expect(try Player.exists(db, key: ["email": "arthur@example.com"]))
            #expect(try Citizenship.exists(db, key: ["citizenId": 1, "countryCode": "FR"]))
            #expect(try !Citizenship.exists(db, key: ["citizenId": 2, "countryCode": "US"]))
            #expect(try (Player.fetchOne(db, id: 1) != nil) == Player.exists(db, id: 1))
        }
    }

    @Test func fetchingAggregatedValues() throws {
        try withReadmeDatabase { db throws in
            var counts: [Int] = []
            let sql = try queryInterfaceTrace(db) { () throws in
                counts.append(try Player.fetchCount(db))
                counts.append(try Player.filter { $0.email != nil }.fetchCount(db))
                counts.append(try Player.select(\.team).distinct().fetchCount(db))
                counts.append(try Player.select { [$0.team, $0.isVerified] }.distinct().fetchCount(db))
            }
            #expect(counts == [4, 3, 2, 4])
            #expect(sql == [
                #"SELECT COUNT(*) FROM "player""#,
                #"SELECT COUNT(*) FROM "player" WHERE "email" IS NOT NULL"#,
                #"SELECT COUNT(DISTINCT "team") FROM "player""#,
                #"SELECT COUNT(*) FROM (SELECT DISTINCT "team", "isVerified" FROM "player")"#,
            ])
        }
    }

    @Test func deleteRequests() throws {
        try withReadmeDatabase { db throws in
            var sql = try queryInterfaceTrace(db) { () throws in
                #expect(try Player.filter { $0.team == "Reds" }.deleteAll(db) == 2)
            }
            #expect(sql == [#"DELETE FROM "player" WHERE "team" = ?"#])
            #expect(try Player.fetchAll(db).map(\.id) == [3, 4])

            sql = try queryInterfaceTrace(db) { () throws in
                #expect(try Player.order(\.score).limit(1).deleteAll(db) == 1)
            }
            // GRDB 7.10 writes a limited delete with SQLite's own ORDER BY
            // and LIMIT clauses (SQLQueryGenerator.makeDeleteStatement).
            #expect(sql == [#"DELETE FROM "player" ORDER BY "score" LIMIT 1"#])
            #expect(try Player.fetchAll(db).map(\.id) == [4])

            sql = try queryInterfaceTrace(db) { () throws in
                #expect(try Player.deleteAll(db) == 1)
                #expect(try Table("country").deleteAll(db) == 3)
            }
            #expect(sql == [#"DELETE FROM "player""#, #"DELETE FROM "country""#])
        }
    }

    @Test func deletingByKey() throws {
        try withReadmeDatabase { db throws in
            #expect(try Player.deleteOne(db, id: 1))
            #expect(try !Player.deleteOne(db, id: 1))
            #expect(try Country.deleteAll(db, ids: ["FR", "US"]) == 2)
            #expect(try Player.deleteOne(db, key: 2))
            #expect(try Country.deleteAll(db, keys: ["DE"]) == 1)
            #expect(try Player.deleteOne(db, key: ["email": "diane@example.com"]))
            #expect(try Citizenship.deleteOne(db, key: ["citizenId": 1, "countryCode": "FR"]))
            #expect(try Player.fetchAll(db).map(\.id) == [3])
            #expect(try Citizenship.fetchCount(db) == 2)

            let sql = try queryInterfaceTrace(db) { () throws in
                #expect(try Document.deleteOne(db, key: 1))
            }
            #expect(sql == [#"DELETE FROM "document" WHERE "rowid" = ?"#])
            #expect(try Document.fetchAll(db).map(\.title) == ["B"])
        }
    }

    @Test func customRequests() throws {
        try withReadmeDatabase { db throws in
            let request = Player.all()
            #expect(try request.fetchCursor(db).map(\.id).reduce(0, +) == 10)
            #expect(try request.fetchAll(db).count == 4)
            #expect(try request.fetchSet(db).count == 4)
            #expect(try request.fetchOne(db)?.id == 1)
            #expect(try request.fetchCount(db) == 4)

            #expect(try Player.fetchAll(db, sql: "SELECT * FROM player WHERE score > 500").map(\.id) == [2, 4])

            #expect(try Player.filter(team: "Reds").fetchAll(db).map(\.id) == [1, 2])
            let literal = Player.filter(teamLiteral: "Blues")
            let (sql, arguments) = try generated(db, literal)
            #expect(sql == "SELECT * FROM player WHERE team = ?")
            #expect(arguments == ["Blues"])
            #expect(try literal.fetchAll(db).map(\.id) == [3, 4])
            #expect(try literal.fetchCount(db) == 2)
        }
    }
}
