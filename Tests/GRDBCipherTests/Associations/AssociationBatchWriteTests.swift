import Foundation
import Testing
@testable import GRDBCipher

/// Deleting and updating the rows of a request with associations: only the
/// rows the joins keep are written, with the SQL GRDB 7.10 generates.
@Suite struct AssociationBatchWriteTests {
    @Test func deleteAllDeletesOnlyTheJoinedRows() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer
                .joining(required: AssocPlayer.team.filter(Column("name") == "Reds"))
                .filter(Column("score") > 150)
            var deleted = 0
            let trace = try queryInterfaceTrace(db) { deleted = try request.deleteAll(db) }
            #expect(trace == [#"DELETE FROM "player" WHERE "id" IN (SELECT "player"."id" FROM "player" JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."name" = ?) WHERE "player"."score" > ?)"#])
            #expect(deleted == 1)
            #expect(try AssocPlayer.order(Column("id")).fetchAll(db).map(\.name) == ["Arthur", "Craig"])
        }
    }

    @Test func includedColumnsOrderAndLimitOfTheSubquery() throws {
        try withAssociationDatabase { db throws in
            var trace = try queryInterfaceTrace(db) {
                _ = try AssocPlayer.including(optional: AssocPlayer.team).order(Column("name")).limit(1).deleteAll(db)
            }
            #expect(trace == [#"DELETE FROM "player" WHERE "id" IN (SELECT "player"."id" FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "player"."name" LIMIT 1)"#])
            #expect(try AssocPlayer.fetchCount(db) == 2)

            // A prefetched association writes nothing more.
            trace = try queryInterfaceTrace(db) { _ = try AssocTeam.including(all: AssocTeam.players).filter(Column("id") == 2).deleteAll(db) }
            #expect(trace == [#"DELETE FROM "team" WHERE "id" = ?"#])
        }
    }

    @Test func updateAllUpdatesOnlyTheJoinedRows() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer.joining(required: AssocPlayer.team)
            var updated = 0
            let trace = try queryInterfaceTrace(db) { updated = try request.updateAll(db, Column("score").set(to: 0)) }
            #expect(trace == [#"UPDATE "player" SET "score" = ? WHERE "id" IN (SELECT "player"."id" FROM "player" JOIN "team" ON "team"."id" = "player"."teamId")"#])
            #expect(updated == 2)
            #expect(try AssocPlayer.order(Column("id")).fetchAll(db).map(\.score) == [0, 0, 50])
        }
    }

    @Test func tablesWithoutRowIDAliasUseTheRowID() throws {
        try withAssociationDatabase { db throws in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            let request = AssocCountry.joining(required: AssocCountry.hasMany(AssocPerson.self))
            let trace = try queryInterfaceTrace(db) { _ = try request.deleteAll(db) }
            #expect(trace == [#"DELETE FROM "country" WHERE "rowid" IN (SELECT "country"."rowid" FROM "country" JOIN "person" ON "person"."countryCode" = "country"."code")"#])
            #expect(try AssocCountry.fetchCount(db) == 0)
        }
    }
}
