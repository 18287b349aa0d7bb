import Foundation
import Testing
@testable import GRDBCipher

/// `save` inserts when no row has the record's key, and only then.
@Suite struct SaveFallbackTests {
    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var failsUpdate = false

        enum CodingKeys: String, CodingKey { case id, name }

        init(id: Int64, name: String, failsUpdate: Bool = false) {
            (self.id, self.name, self.failsUpdate) = (id, name, failsUpdate)
        }

        func willUpdate(_ db: Database, columns: Set<String>) throws {
            // A callback that looks for another player and does not find it.
            if failsUpdate { throw RecordError.recordNotFound(databaseTableName: "player", key: ["id": 99.databaseValue]) }
        }
    }

    @Test func aRecordNotFoundForAnotherKeyIsNotTakenForAMissingRow() throws {
        try inEncryptedDatabase { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try Player(id: 1, name: "Arthur").save(db)   // no row 1: inserted
            #expect(try Player.fetchCount(db) == 1)
            let error = #expect(throws: RecordError.self) {
                try Player(id: 2, name: "Barbara", failsUpdate: true).save(db)
            }
            guard case .recordNotFound(_, let key) = error else { return }
            #expect(key == ["id": 99.databaseValue])
            #expect(try Player.fetchCount(db) == 1)
        }
    }
}
