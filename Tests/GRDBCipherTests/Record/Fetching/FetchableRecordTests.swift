import Foundation
import Testing
@testable import GRDBCipher

/// The README's `Place`, with plain coordinates.
private struct Place: FetchableRecord, Equatable {
    var id: Int64?
    var title: String
    var latitude: Double
    var longitude: Double

    enum Columns {
        static let id = Column("id")
        static let title = Column("title")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
    }

    init(id: Int64?, title: String, latitude: Double, longitude: Double) {
        self.id = id
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
    }

    init(row: Row) {
        id = row[Columns.id]
        title = row[Columns.title]
        latitude = row[Columns.latitude]
        longitude = row[Columns.longitude]
    }
}

/// The README's Decodable `Player`, "That's all".
private struct Player: Decodable, FetchableRecord, Hashable {
    var id: Int64
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

private func makePlayers(_ db: Database) throws {
    try db.execute(sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
        INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 1000), (3, 'Craig', 100);
        """)
}

@Suite("FetchableRecord")
struct FetchableRecordTests {
    @Test func handWrittenInitDecodesPlaces() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: """
                CREATE TABLE place (id INTEGER PRIMARY KEY, title TEXT, latitude REAL, longitude REAL);
                INSERT INTO place VALUES (1, 'Paris', 48.85341, 2.3488);
                """)
            let places = try Place.fetchAll(db, sql: "SELECT * FROM place")
            #expect(places == [Place(id: 1, title: "Paris", latitude: 48.85341, longitude: 2.3488)])
        }
    }

    @Test func decodableRecordFetchesFromSQL() throws {
        try inEncryptedDatabase { db in
            try makePlayers(db)
            let all = try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id")
            #expect(all.map(\.name) == ["Arthur", "Barbara", "Craig"])
            let cursor = try Player.fetchCursor(db, sql: "SELECT * FROM player WHERE score = ? ORDER BY id", arguments: [100])
            #expect(try Array(cursor).map(\.id) == [1, 3])
            let one = try Player.fetchOne(db, sql: "SELECT * FROM player WHERE name = ?", arguments: ["Barbara"])
            #expect(one == Player(id: 2, name: "Barbara", score: 1000))
            #expect(try Player.fetchOne(db, sql: "SELECT * FROM player WHERE 0") == nil)
            let set = try Player.fetchSet(db, sql: "SELECT * FROM player UNION ALL SELECT * FROM player")
            #expect(set.count == 3)
        }
    }

    @Test func decodableRecordFetchesFromStatementsAndLiterals() throws {
        try inEncryptedDatabase { db in
            try makePlayers(db)
            let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE score = ? ORDER BY id")
            #expect(try Player.fetchAll(statement, arguments: [100]).map(\.id) == [1, 3])
            #expect(try Player.fetchOne(statement, arguments: [1000])?.name == "Barbara")
            #expect(try Player.fetchSet(statement, arguments: [100]).count == 2)
            let cursor = try Player.fetchCursor(statement, arguments: [1000])
            #expect(cursor.sql == "SELECT * FROM player WHERE score = ? ORDER BY id")
            #expect(cursor.columnNames == ["id", "name", "score"])
            #expect(try cursor.next()?.id == 2)
            #expect(try cursor.next() == nil)

            let name = "Craig"
            #expect(try Player.fetchOne(db, literal: "SELECT * FROM player WHERE name = \(name)")?.id == 3)
            #expect(try Player.fetchAll(db, literal: "SELECT * FROM player WHERE score > \(500)").map(\.id) == [2])
            #expect(try Array(Player.fetchCursor(db, literal: "SELECT * FROM player WHERE id = \(1)")).count == 1)
            #expect(try Player.fetchSet(db, literal: "SELECT * FROM player WHERE score = \(100)").count == 2)
        }
    }

    @Test func fetchableRecordDecoderDecodesARow() throws {
        try inEncryptedDatabase { db in
            try makePlayers(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = 2"))
            let player = try FetchableRecordDecoder().decode(Player.self, from: row)
            #expect(player == Player(id: 2, name: "Barbara", score: 1000))
            #expect(try Player(row: row) == player)
        }
    }

    @Test func fetchingWrongSQLThrowsADatabaseError() throws {
        try inEncryptedDatabase { db in
            #expect(throws: DatabaseError.self) { try Player.fetchAll(db, sql: "SELECT * FROM missing") }
        }
    }

    @Test func defaultsAreGRDBs() throws {
        #expect(Player.databaseDecodingUserInfo.isEmpty)
        guard case .useDefaultKeys = Player.databaseColumnDecodingStrategy else { Issue.record("strategy"); return }
        guard case .deferredToDate = Player.databaseDateDecodingStrategy(for: "x") else { Issue.record("date"); return }
        guard case .deferredToData = Player.databaseDataDecodingStrategy(for: "x") else { Issue.record("data"); return }
        let decoder = Player.databaseJSONDecoder(for: "x")
        guard case .millisecondsSince1970 = decoder.dateDecodingStrategy else { Issue.record("json date"); return }
        guard case .base64 = decoder.dataDecodingStrategy else { Issue.record("json data"); return }
        guard case .throw = decoder.nonConformingFloatDecodingStrategy else { Issue.record("json floats"); return }
    }
}
