import Foundation
import Testing
@testable import GRDBCipher

/// Foreign keys of associations: inferred from the schema, given in part
/// or in full, and the errors thrown where GRDB traps (ambiguous or missing
/// foreign keys, a required association behind an optional one).
@Suite struct AssociationForeignKeyTests {
    @Test func anAmbiguousForeignKeyThrows() throws {
        try withAssociationDatabase { db throws in
            let request = AssocBook.including(required: AssocBook.belongsTo(AssocPerson.self))
            let error = #expect(throws: DatabaseError.self) { _ = try Row.fetchAll(db, request) }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "Ambiguous foreign key from 'book' to 'person'. To fix this error, provide an explicit `ForeignKey` in the association definition.")
        }
    }

    @Test func aMissingForeignKeyThrows() throws {
        try withAssociationDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                _ = try Row.fetchAll(db, AssocTeam.including(required: AssocTeam.belongsTo(AssocCountry.self)))
            }
            #expect(error?.message == "Could not infer foreign key from 'team' to 'country'. To fix this error, provide an explicit `ForeignKey` in the association definition.")

            let noTable = #expect(throws: DatabaseError.self) {
                _ = try Row.fetchAll(db, AssocTeam.including(required: AssocTeam.belongsTo(Table("nope"))))
            }
            #expect(noTable?.message == "Could not infer foreign key from 'team' to 'nope'. To fix this error, provide an explicit `ForeignKey` in the association definition.")

            let noOrigin = #expect(throws: DatabaseError.self) {
                _ = try Row.fetchAll(db, Table("nope").including(required: Table("nope").belongsTo(AssocTeam.self)))
            }
            #expect(noOrigin?.message == "no such table: nope")
        }
    }

    @Test func originColumnsAloneUseTheDestinationPrimaryKey() throws {
        try withAssociationDatabase { db throws in
            try db.execute(sql: "CREATE TABLE loan (bookId INTEGER, who TEXT)")
            try db.execute(sql: "INSERT INTO loan VALUES (1, 'Zoe')")
            let loans = Table("loan")
            let book = loans.belongsTo(AssocBook.self, using: ForeignKey(["bookId"]))
            let request = loans.including(required: book)
            #expect(try generated(db, request).0 == #"SELECT "loan".*, "book".* FROM "loan" JOIN "book" ON "book"."id" = "loan"."bookId""#)
            #expect(try Row.fetchOne(db, request)?.scopes["book"]?["title"] == "Les Mis")
        }
    }

    @Test func aFullForeignKeyNeedsNoSchema() throws {
        try withAssociationDatabase { db throws in
            try db.execute(sql: "CREATE VIEW named AS SELECT name AS label, id AS ref FROM team")
            let association = AssocPlayer.belongsTo(
                Table("named"), key: "label", using: ForeignKey([Column("teamId")], to: [Column("ref")]))
            let request = AssocPlayer.including(required: association)
            #expect(try generated(db, request).0 == #"SELECT "player".*, "named".* FROM "player" JOIN "named" ON "named"."ref" = "player"."teamId""#)
            #expect(try Row.fetchAll(db, request).map { $0.scopes["label"]?["label"] as String? } == ["Reds", "Reds"])
        }
    }

    @Test func compositeForeignKeys() throws {
        try withAssociationDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE edition (bookId INTEGER, number INTEGER, PRIMARY KEY (bookId, number));
                CREATE TABLE copy (id INTEGER PRIMARY KEY, bookId INTEGER, number INTEGER,
                    FOREIGN KEY (bookId, number) REFERENCES edition (bookId, number));
                INSERT INTO edition VALUES (1, 2);
                INSERT INTO copy VALUES (10, 1, 2), (11, NULL, NULL);
                """)
            let copies = Table("copy")
            let request = copies.including(optional: copies.belongsTo(Table("edition"))).order(Column("id"))
            #expect(try generated(db, request).0 == #"SELECT "copy".*, "edition".* FROM "copy" LEFT JOIN "edition" ON ("edition"."bookId" = "copy"."bookId") AND ("edition"."number" = "copy"."number") ORDER BY "copy"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopes["edition"]?["number"] as Int? } == [2, nil])
        }
    }

    @Test func aRequiredAssociationBehindAnOptionalOneThrows() throws {
        try withAssociationDatabase { db throws in
            let request = AssocBook.joining(optional: AssocBook.author.including(required: AssocPerson.country))
            let error = #expect(throws: DatabaseError.self) { _ = try Row.fetchAll(db, request) }
            #expect(error?.message == "Not implemented: chaining a required association behind an optional association")
        }
    }

    @Test func aSelectionLiteralInAnIncludedAssociationThrowsOnceSQLiteAcceptsIt() throws {
        try withAssociationDatabase { db throws in
            // SQLite's error first, as in GRDB.
            let ambiguous = AssocPlayer.including(required: AssocPlayer.team.select(sql: "name")).select(Column("name"))
            let sqliteError = #expect(throws: DatabaseError.self) { _ = try Row.fetchAll(db, ambiguous) }
            #expect(sqliteError?.message == "ambiguous column name: name")

            let literal = AssocPlayer.including(required: AssocPlayer.team.select(sql: "team.name"))
            let error = #expect(throws: DatabaseError.self) { _ = try Row.fetchAll(db, literal) }
            #expect(error?.message?.hasPrefix("Selection literals don't known how many columns they contain.") == true)
        }
    }
}
