import Foundation
import Testing
@testable import GRDBCipher

/// Decoding joined requests: Decodable records with a property per
/// association key, `FetchableRecord` with `row.decode(forKey:)`, nested
/// records, and partial associated records.
@Suite struct AssociationDecodingTests {
    private struct PlayerInfo: Decodable, FetchableRecord, Equatable {
        var player: AssocPlayer
        var team: AssocTeam?
    }

    private struct RequiredPlayerInfo: Decodable, FetchableRecord, Equatable {
        var player: AssocPlayer
        var team: AssocTeam
    }

    private struct BookInfo: Decodable, FetchableRecord {
        var book: AssocBook
        var author: AssocPerson
        var country: AssocCountry?
        var translator: AssocPerson?
    }

    private struct HierarchicalBookInfo: Decodable, FetchableRecord {
        struct PersonInfo: Decodable {
            var person: AssocPerson
            var country: AssocCountry?
        }
        var book: AssocBook
        var authorInfo: PersonInfo
        var translatorInfo: PersonInfo?

        enum CodingKeys: String, CodingKey {
            case book, authorInfo, translatorInfo
        }
    }

    private struct PlayerWithTeamName: Decodable, FetchableRecord {
        struct PartialTeam: Decodable { var name: String }
        var player: AssocPlayer
        var team: PartialTeam
    }

    @Test func decodableRecordWithAnOptionalAssociatedRecord() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.including(optional: AssocPlayer.team).order(Column("id")).asRequest(of: PlayerInfo.self)
            let infos = try request.fetchAll(db)
            #expect(infos.map(\.player.name) == ["Arthur", "Barbara", "Craig"])
            #expect(infos.map(\.team?.name) == ["Reds", "Reds", nil])
            #expect(try PlayerInfo.fetchOne(db, request.filter(Column("id") == 3)) == PlayerInfo(
                player: AssocPlayer(id: 3, teamId: nil, name: "Craig", score: 50), team: nil))
        }
    }

    @Test func decodableRecordWithARequiredAssociatedRecord() throws {
        try withAssociationDatabase { db throws in
            let infos = try RequiredPlayerInfo.fetchAll(db, AssocPlayer.including(required: AssocPlayer.team))
            #expect(infos.count == 2)
            #expect(infos.allSatisfy { $0.team == AssocTeam(id: 1, name: "Reds") })

            // A missing left-joined row cannot feed a non-optional property.
            #expect(throws: (any Error).self) {
                _ = try RequiredPlayerInfo.fetchAll(db, AssocPlayer.including(optional: AssocPlayer.team))
            }
        }
    }

    @Test func flatDecodableRecordOfChainedAssociations() throws {
        try withAssociationDatabase { db throws in
            let request = AssocBook
                .including(required: AssocBook.author.including(optional: AssocPerson.country))
                .including(optional: AssocBook.translator)
            let info = try #require(try BookInfo.fetchOne(db, request))
            #expect(info.book.title == "Les Mis")
            #expect(info.author.name == "Victor")
            #expect(info.country?.name == "France")
            #expect(info.translator?.name == "Anon")
        }
    }

    @Test func hierarchicalDecodableRecordWithCodingKeys() throws {
        try withAssociationDatabase { db throws in
            let request = AssocBook
                .including(required: AssocBook.author
                    .forKey(HierarchicalBookInfo.CodingKeys.authorInfo)
                    .including(optional: AssocPerson.country))
                .including(optional: AssocBook.translator
                    .forKey(HierarchicalBookInfo.CodingKeys.translatorInfo)
                    .including(optional: AssocPerson.country))
                .asRequest(of: HierarchicalBookInfo.self)
            #expect(try generated(db, request).0 == #"SELECT "book".*, "person1".*, "country1".*, "person2".*, "country2".* FROM "book" JOIN "person" "person1" ON "person1"."id" = "book"."authorId" LEFT JOIN "country" "country1" ON "country1"."code" = "person1"."countryCode" LEFT JOIN "person" "person2" ON "person2"."id" = "book"."translatorId" LEFT JOIN "country" "country2" ON "country2"."code" = "person2"."countryCode""#)
            let info = try #require(try request.fetchOne(db))
            #expect(info.authorInfo.person.name == "Victor")
            #expect(info.authorInfo.country?.code == "FR")
            #expect(info.translatorInfo?.person.name == "Anon")
            #expect(info.translatorInfo?.country == nil)
        }
    }

    @Test func partialAssociatedRecord() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.including(required: AssocPlayer.team.select(Column("name")))
            let infos = try PlayerWithTeamName.fetchAll(db, request)
            #expect(infos.map(\.team.name) == ["Reds", "Reds"])
            #expect(infos.map(\.player.name) == ["Arthur", "Barbara"])
        }
    }

    @Test func fetchableRecordDecodesScopes() throws {
        struct Info: FetchableRecord {
            var player: AssocPlayer
            var team: AssocTeam?
            init(row: Row) throws {
                player = try AssocPlayer(row: row)
                team = try row.decodeIfPresent(forKey: "team")
            }
        }
        try withAssociationDatabase { db throws in
            let infos = try Info.fetchAll(db, AssocPlayer.including(optional: AssocPlayer.team).order(Column("id")))
            #expect(infos.map(\.team?.name) == ["Reds", "Reds", nil])
            let rows = try Row.fetchAll(db, AssocPlayer.including(optional: AssocPlayer.team).order(Column("id")))
            let team: AssocTeam? = rows[0]["team"]
            #expect(team == AssocTeam(id: 1, name: "Reds"))
            #expect(try rows[2].decodeIfPresent(AssocTeam.self, forKey: "team") == nil)
            #expect(throws: RowDecodingError.self) { _ = try rows[2].decode(AssocTeam.self, forKey: "team") }
        }
    }

    @Test func theAdapterIsReusedWhenTheRequestIsFetchedAgain() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.including(optional: AssocPlayer.team).asRequest(of: PlayerInfo.self)
            let first = try request.fetchAll(db)
            #expect(try request.fetchAll(db) == first)
            #expect(request.memo.generationCount == 1)
            // A schema change invalidates the memo: the new column is counted.
            try db.execute(sql: "ALTER TABLE team ADD COLUMN city TEXT")
            let rows = try Row.fetchAll(db, request)
            #expect(rows[0].scopes["team"] == ["id": 1, "name": "Reds", "city": nil])
            #expect(rows[0].unscoped == ["id": 1, "teamId": 1, "name": "Arthur", "score": 100])
        }
    }
}
