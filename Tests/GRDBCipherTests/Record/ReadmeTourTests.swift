import Foundation
import Testing
@testable import GRDBCipher

/// The records part of the README's tour, run as written on an encrypted
/// queue, with the SQL the README shows.
@Suite struct ReadmeTourTests {
    struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int
        var createdAt: Date

        enum Columns {
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    @Test func theRecordsTourRunsAsWritten() async throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("correct horse battery staple"))
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, createdAt DATETIME NOT NULL)
                """)
        }
        let sql: [String] = try await dbQueue.write { db in
            var sql: [String] = []
            db.trace { sql.append($0.description) }
            defer { db.trace(nil) }
            var player = Player(id: nil, name: "Barbara", score: 1000, createdAt: Date())
            try player.insert(db)
            #expect(player.id == 1)
            player.score += 10
            try player.update(db)
            try player.updateChanges(db) { $0.score = 0 }
            return sql.filter { $0.hasPrefix("INSERT") || $0.hasPrefix("UPDATE") }
        }
        #expect(sql == [
            #"INSERT INTO "player" ("id", "name", "score", "createdAt") VALUES (?,?,?,?)"#,
            #"UPDATE "player" SET "name"=?, "score"=?, "createdAt"=? WHERE "id"=?"#,
            #"UPDATE "player" SET "score"=? WHERE "id"=?"#,
        ])
        try await dbQueue.write { db in
            var other = Player(id: nil, name: "Arthur", score: 600, createdAt: Date())
            try other.insert(db)
        }
        let (barbara, best) = try await dbQueue.read { db in
            let barbara = try Player.find(db, id: 1)
            let best = try Player
                .filter(Player.Columns.score > 500)
                .order(Player.Columns.score.desc)
                .limit(10)
                .fetchAll(db)
            return (barbara, best)
        }
        #expect(barbara.name == "Barbara" && barbara.score == 0)
        #expect(best.map(\.name) == ["Arthur"])
    }

    @Test func recordsWorkOnAnEncryptedPool() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("pool passphrase"))
        try await dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, createdAt DATETIME NOT NULL)
                """)
            for index in 0..<20 {
                var player = Player(id: nil, name: "Player \(index)", score: index * 10, createdAt: Date())
                try player.insert(db)
            }
        }
        // Readers in parallel with a writer that keeps saving.
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try await dbPool.read { try Player.filter(Player.Columns.score >= 0).fetchCount($0) } }
            }
            group.addTask {
                try await dbPool.write { db in
                    var player = try Player.find(db, id: 1)
                    player.score = 1000
                    try player.save(db)
                    return 0
                }
            }
            for try await count in group where count != 0 {
                #expect(count == 20)
            }
        }
        let best = try await dbPool.read { try Player.order(Player.Columns.score.desc).fetchOne($0) }
        #expect(best?.id == 1 && best?.score == 1000)
        #expect(try await dbPool.read { try Player.exists($0, id: 20) })
    }

    /// The tour's request extension and JSON column, on an encrypted pool.
    @Test func theTourRequestExtensionAndJSONColumnRun() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("pool passphrase"))
        try await dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, createdAt DATETIME NOT NULL);
                CREATE TABLE profile (id INTEGER PRIMARY KEY, info TEXT NOT NULL);
                INSERT INTO profile (info) VALUES ('{"country":"FR"}'), ('{"country":"US"}'), ('{"country":"FR"}');
                """)
            for (name, score) in [("Arthur", 100), ("Barbara", 1000), ("Craig", 600)] {
                var player = Player(id: nil, name: name, score: score, createdAt: Date())
                try player.insert(db)
            }
        }
        let bestCount = try await dbPool.read { db in try Player.all().best().fetchCount(db) }
        #expect(bestCount == 2)
        let bestNames = try await dbPool.read { db in try Player.all().best().fetchAll(db).map(\.name) }
        #expect(bestNames == ["Barbara", "Craig"])

        let info = JSONColumn("info")
        let request = Table("profile").select(info["country"], as: String.self).distinct()
        let sql = try await dbPool.read { db in try request.makePreparedRequest(db, forSingleResult: false).statement.sql }
        #expect(sql == #"SELECT DISTINCT "info" ->> ? FROM "profile""#)
        let countries = try await dbPool.read { db in try request.fetchAll(db) }
        #expect(countries.sorted() == ["FR", "US"])
    }
}

extension DerivableRequest<ReadmeTourTests.Player> {
    fileprivate func best() -> Self { filter { $0.score > 500 }.order { $0.score.desc } }
}
