import Foundation
import Testing
@testable import GRDBCipher

/// `record.request(for:)`: the records associated to one record.
@Suite struct AssociationRequestForTests {
    @Test func belongsToFiltersOnTheDestinationKey() throws {
        try withAssociationDatabase { db throws in
            let player = try #require(try AssocPlayer.fetchOne(db, key: 1))
            let request = player.request(for: AssocPlayer.team)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "team" WHERE "id" = ?"#)
            #expect(arguments == [1])
            let trace = try queryInterfaceTrace(db) { _ = try request.fetchOne(db) }
            #expect(trace == [#"SELECT * FROM "team" WHERE "id" = ?"#])
            #expect(try request.fetchOne(db)?.name == "Reds")
        }
    }

    @Test func aNullForeignKeyMatchesNothing() throws {
        try withAssociationDatabase { db throws in
            let craig = try #require(try AssocPlayer.fetchOne(db, key: 3))
            let request = craig.request(for: AssocPlayer.team)
            #expect(try generated(db, request).0 == #"SELECT * FROM "team" WHERE ?"#)
            #expect(try request.fetchAll(db).isEmpty)
        }
    }

    @Test func hasManyAndHasOneFilterOnTheForeignKey() throws {
        try withAssociationDatabase { db throws in
            let reds = try #require(try AssocTeam.fetchOne(db, key: 1))
            let players = reds.request(for: AssocTeam.players.filter(Column("score") > 0).order(Column("name")))
            let (sql, arguments) = try generated(db, players)
            #expect(sql == #"SELECT * FROM "player" WHERE ("score" > ?) AND ("teamId" = ?) ORDER BY "name""#)
            #expect(arguments == [0, 1])
            #expect(try players.fetchAll(db).map(\.name) == ["Arthur", "Barbara"])
            #expect(try reds.request(for: AssocTeam.captain).fetchCount(db) == 2)
        }
    }

    @Test func throughAssociationsJoinBackToTheRecord() throws {
        try withAssociationDatabase { db throws in
            let book = try #require(try AssocBook.fetchOne(db))
            let country = AssocBook.hasOne(AssocCountry.self, through: AssocBook.author, using: AssocPerson.country)
            let trace = try queryInterfaceTrace(db) { _ = try book.request(for: country).fetchOne(db) }
            #expect(trace == [#"SELECT "country".* FROM "country" JOIN "person" ON ("person"."countryCode" = "country"."code") AND ("person"."id" = ?) LIMIT 1"#])
            #expect(try book.request(for: country).fetchOne(db)?.name == "France")

            let france = try #require(try AssocCountry.fetchOne(db))
            let books = AssocCountry.hasMany(
                AssocBook.self,
                through: AssocCountry.hasMany(AssocPerson.self),
                using: AssocPerson.hasMany(AssocBook.self, key: "books", using: ForeignKey(["authorId"])))
            #expect(try generated(db, france.request(for: books)).0 == #"SELECT "book".* FROM "book" JOIN "person" ON ("person"."id" = "book"."authorId") AND ("person"."countryCode" = ?)"#)
            #expect(try france.request(for: books).fetchAll(db).map(\.title) == ["Les Mis"])
        }
    }
}
