import Foundation
import Testing
@testable import GRDBCipher

/// Hand-written `init(row:)` reading the records `including(all:)`
/// prefetched: `row["players"]` as an array, a set, or through `decode`.
@Suite struct PrefetchedRecordsDecodingTests {
    private struct TeamWithArray: FetchableRecord {
        var team: AssocTeam
        var players: [AssocPlayer]
        init(row: Row) throws {
            team = try AssocTeam(row: row)
            players = row["players"]
        }
    }

    private struct TeamWithSet: FetchableRecord {
        var team: AssocTeam
        var players: Set<AssocPlayer>
        var decoded: [AssocPlayer]
        init(row: Row) throws {
            team = try AssocTeam(row: row)
            players = row["players"]
            decoded = try row.decode(forKey: "players")
        }
    }

    @Test func anArrayOfPrefetchedRecordsKeepsTheRowOrder() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam
                .including(all: AssocTeam.players.order(Column("name").desc))
                .order(Column("id"))
                .asRequest(of: TeamWithArray.self)
            let infos = try request.fetchAll(db)
            #expect(infos.map(\.team.name) == ["Reds", "Blues"])
            #expect(infos.map { $0.players.map(\.name) } == [["Barbara", "Arthur"], []])
        }
    }

    @Test func aSetAndDecodeReadTheSameRecords() throws {
        try withAssociationDatabase { db throws in
            let infos = try AssocTeam.including(all: AssocTeam.players).order(Column("id"))
                .asRequest(of: TeamWithSet.self).fetchAll(db)
            #expect(infos[0].players == Set(infos[0].decoded))
            #expect(infos[0].players.map(\.name).sorted() == ["Arthur", "Barbara"])
            #expect(infos[1].players.isEmpty)
        }
    }

    @Test func aMissingKeyThrowsGRDBsErrorWithTheAvailableKeys() throws {
        try withAssociationDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, AssocTeam.including(all: AssocTeam.players).order(Column("id"))))
            let error = #expect(throws: RowDecodingError.self) { try row.decode([AssocPlayer].self, forKey: "members") }
            #expect(error?.kind == .prefetchKeyNotFound)
            #expect(error?.description.hasPrefix(#"key for prefetched rows not found: "members" - available keys: ["players"]"#) == true,
                    "\(String(describing: error))")

            let plain = try #require(try Row.fetchOne(db, AssocTeam.all()))
            let plainError = #expect(throws: RowDecodingError.self) { try plain.decode(Set<AssocPlayer>.self, forKey: "players") }
            #expect(plainError?.description.hasPrefix(#"key for prefetched rows not found: "players" - row:"#) == true,
                    "\(String(describing: plainError))")
        }
    }
}
