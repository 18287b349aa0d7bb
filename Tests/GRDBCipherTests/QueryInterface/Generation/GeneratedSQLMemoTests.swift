import Foundation
import Testing
@testable import GRDBCipher

@Suite("A request's SQL is generated once per connection and schema")
struct GeneratedSQLMemoTests {
    @Test("Fetching the same request again reuses its SQL and statement")
    func reuse() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.filter(GenPlayer.Columns.score > 200).order(GenPlayer.Columns.name)
            let first = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Diane"])
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Diane"])
            #expect(try request.fetchCount(db) == 2)
            #expect(try request.fetchCount(db) == 2)
            #expect(try !request.isEmpty(db))
            #expect(try !request.isEmpty(db))
            // select, count, exists: one generation each.
            #expect(request.memo.generationCount == 3)
            #expect(try request.makePreparedRequest(db, forSingleResult: false).statement === first)
            // A copy shares the memo; a changed request starts its own.
            let copy = request
            _ = try copy.fetchAll(db)
            #expect(request.memo.generationCount == 3)
            let limited = request.limit(1)
            #expect(try limited.fetchAll(db).map(\.name) == ["Barbara"])
            #expect(limited.memo.generationCount == 1)
            #expect(request.memo.generationCount == 3)
        }
    }

    @Test("SQL that read the schema is generated again after the schema changed")
    func schemaChange() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.select(AllColumns(excluding: ["teamId"])).filter(key: 2)
            #expect(try Row.fetchOne(db, request)?.columnNames == ["id", "name", "score"])
            #expect(try Row.fetchOne(db, request)?.columnNames == ["id", "name", "score"])
            #expect(request.memo.generationCount == 1)
            try db.execute(sql: "ALTER TABLE player ADD COLUMN rank INTEGER")
            #expect(try Row.fetchOne(db, request)?.columnNames == ["id", "name", "score", "rank"])
            #expect(request.memo.generationCount == 2)
        }
    }

    @Test("Each connection of a pool generates its own SQL, and sees another connection's schema change")
    func pool() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: keyed("secret"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, secret TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 'x')")
        }
        let request = Table("player").select(AllColumns(excluding: ["secret"]))
        #expect(try dbPool.read { db in try Row.fetchOne(db, request)?.columnNames } == ["id", "name"])
        #expect(try dbPool.write { db in try Row.fetchOne(db, request)?.columnNames } == ["id", "name"])
        #expect(request.memo.generationCount == 2)
        try dbPool.write { db in try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER") }
        #expect(try dbPool.read { db in try Row.fetchOne(db, request)?.columnNames } == ["id", "name", "score"])
        try dbPool.close()
    }
}
