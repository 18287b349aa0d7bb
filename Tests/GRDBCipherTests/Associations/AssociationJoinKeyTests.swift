import Foundation
import Testing
@testable import GRDBCipher

/// The scope keys of joined associations, as GRDB 7.10 names them: a join
/// is to one row, so a to-many association joined with
/// `including(required:)`, `including(optional:)` or `joining` is named by
/// the singular of its key, and so are the tables a `through` association
/// goes through; prefetched associations keep plural keys.
@Suite struct AssociationJoinKeyTests {
    private struct TeamAndPlayer: Decodable, FetchableRecord {
        var team: AssocTeam
        var player: AssocPlayer
    }

    private struct TeamAndOptionalMember: Decodable, FetchableRecord {
        var team: AssocTeam
        var member: AssocPlayer?
    }

    private static let countryBooks = AssocCountry.hasMany(
        AssocBook.self,
        through: AssocCountry.hasMany(AssocPerson.self),
        using: AssocPerson.hasMany(AssocBook.self, key: "books", using: ForeignKey(["authorId"])))

    @Test func toManyJoinsUnderTheSingularKey() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.including(required: AssocTeam.players.order(Column("id"))).order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { Array($0.scopes.names) } == [["player"], ["player"]])
            let decoded = try request.asRequest(of: TeamAndPlayer.self).fetchAll(db)
            #expect(decoded.map { "\($0.team.name)/\($0.player.name)" } == ["Reds/Arthur", "Reds/Barbara"])
        }
    }

    @Test func customKeysAreSingularizedWhenJoined() throws {
        try withAssociationDatabase { db throws in
            // `forKey("members")` on a to-many joins as "member"; `key:`
            // too ("subordinates" joins as "subordinate").
            let request = AssocTeam.including(optional: AssocTeam.players.forKey("members")).order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { Array($0.scopes.names) } == [["member"], ["member"], ["member"]])
            let decoded = try request.asRequest(of: TeamAndOptionalMember.self).fetchAll(db)
            #expect(decoded.map { $0.member?.name ?? "-" } == ["Arthur", "Barbara", "-"])

            let employees = try Row.fetchAll(db, AssocEmployee.including(required: AssocEmployee.subordinates))
            #expect(employees.map { Array($0.scopes.names) } == [["subordinate"]])
            // A key given to a to-one association is used as written.
            let teams = try Row.fetchAll(db, AssocTeam.including(required: AssocTeam.captain.forKey("captains")))
            #expect(teams.allSatisfy { Array($0.scopes.names) == ["captains"] })
        }
    }

    @Test func throughJoinsNameEveryTableInTheSingular() throws {
        try withAssociationDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, AssocCountry.including(required: Self.countryBooks)))
            #expect(Array(row.scopes.names) == ["person"])
            #expect(Array(row.scopes["person"]!.scopes.names) == ["book"])
            #expect(row.scopesTree["book"]?["title"] == "Les Mis")
        }
    }

    @Test func prefetchesKeepPluralKeys() throws {
        try withAssociationDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, AssocCountry.including(all: Self.countryBooks)))
            #expect(row.prefetchedRows["books"]?.count == 1)
        }
    }

    @Test func aJoinAndAnInclusionOfTheSameToManyMerge() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam
                .joining(required: AssocTeam.players.filter(Column("score") > 100))
                .including(optional: AssocTeam.players)
            let trace = try queryInterfaceTrace(db) { _ = try Row.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT "team".*, "player".* FROM "team" JOIN "player" ON ("player"."teamId" = "team"."id") AND ("player"."score" > ?)"#,
            ])
        }
    }

    @Test func requestsFromTheDestinationDoNotMergeWithTheUsersJoins() throws {
        try withAssociationDatabase { db throws in
            let country = try AssocCountry.find(db, key: "FR")
            let request = country.request(for: Self.countryBooks)
                .joining(required: AssocBook.author.filter(Column("name") == "Victor"))
            let trace = try queryInterfaceTrace(db) { _ = try Row.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT "book".* FROM "book" JOIN "person" "person1" ON ("person1"."id" = "book"."authorId") AND ("person1"."countryCode" = ?) JOIN "person" "person2" ON ("person2"."id" = "book"."authorId") AND ("person2"."name" = ?)"#,
            ])
        }
    }
}
