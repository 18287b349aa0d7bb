import Foundation
import Testing
@testable import GRDBCipher

/// `hasMany`, `including(all:)` (the prefetch request GRDB runs after the
/// main one), and the `through` associations, with the SQL GRDB 7.10
/// generates.
@Suite struct ToManyAssociationTests {
    private struct TeamInfo: Decodable, FetchableRecord {
        var team: AssocTeam
        var players: [AssocPlayer]
    }

    private struct TeamNames: Decodable, FetchableRecord {
        var team: AssocTeam
        var names: [String]
    }

    private struct EmployeeInfo: Decodable, FetchableRecord {
        var employee: AssocEmployee
        var manager: AssocEmployee?
        var subordinates: Set<AssocEmployee>
    }

    private static let countryBooks = AssocCountry.hasMany(
        AssocBook.self,
        through: AssocCountry.hasMany(AssocPerson.self),
        using: AssocPerson.hasMany(AssocBook.self, key: "books", using: ForeignKey(["authorId"])))

    @Test func includingAllRunsOnePrefetchRequest() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.including(all: AssocTeam.players).asRequest(of: TeamInfo.self)
            var infos: [TeamInfo] = []
            let trace = try queryInterfaceTrace(db) { infos = try request.fetchAll(db) }
            #expect(trace == [
                #"SELECT * FROM "team""#,
                #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" IN (?, ?)"#,
            ])
            #expect(infos.map(\.team.name) == ["Reds", "Blues"])
            #expect(infos.map { $0.players.map(\.name) } == [["Arthur", "Barbara"], []])
        }
    }

    @Test func rowsWithDifferentPrefetchedRowsAreNotEqual() throws {
        try withAssociationDatabase { db throws in
            let all = try Row.fetchAll(db, AssocTeam.including(all: AssocTeam.players).order(Column("id")))
            let scored = try Row.fetchAll(
                db, AssocTeam.including(all: AssocTeam.players.filter(Column("score") > 1000)).order(Column("id")))
            let plain = try Row.fetchAll(db, AssocTeam.order(Column("id")))
            // Same columns and values, as in GRDB: the prefetched rows decide.
            #expect(Array(all[0].columnNames) == Array(plain[0].columnNames))
            #expect(Array(all[0].databaseValues) == Array(plain[0].databaseValues))
            #expect(all[0] != scored[0])
            #expect(all[0] != plain[0])
            #expect(all[0] == all[0].copy())
            // The second team has no player: both prefetched empty arrays.
            #expect(all[1] == scored[1])
        }
    }

    private struct PlayerFlattened: Decodable, FetchableRecord {
        var player: AssocPlayer
        var team: AssocTeam
        var players: [AssocPlayer]
    }

    @Test func rowsPrefetchedForAScopeAreFoundFromTheRowAsInGRDB() throws {
        try withAssociationDatabase { db throws in
            let request = AssocPlayer
                .including(required: AssocPlayer.team.including(all: AssocTeam.players.order(Column("id"))))
                .order(Column("id"))
            let row = try #require(try Row.fetchOne(db, request))
            // Breadth first, as GRDB: the team's prefetched players are the
            // player row's too.
            #expect(row.prefetchedRows.keys == ["players"])
            #expect(row.prefetchedRows.isEmpty == false)
            #expect(row.prefetchedRows["players"]?.map { $0["name"] as String } == ["Arthur", "Barbara"])
            #expect(row.scopes["team"]?.prefetchedRows["players"]?.count == 2)
            #expect(row.debugDescription.hasSuffix("- team: [id:1 name:\"Reds\"]\n    + players: 2 rows\n  + players: 2 rows"))
            // So are `unscoped` rows, as in GRDB.
            #expect(row.unscoped.prefetchedRows.isEmpty)
            let team = try #require(try Row.fetchOne(db, AssocTeam.including(all: AssocTeam.players).order(Column("id"))))
            #expect(team.prefetchedRows.isEmpty == false)
            #expect(team.unscoped == ["id": 1, "name": "Reds"])
            // A copy is adapted again without them, as in GRDB.
            #expect(row.copy().prefetchedRows.isEmpty)
            #expect(row != row.copy())
            // A record decodes the nested rows from a property at its top.
            let records = try request.asRequest(of: PlayerFlattened.self).fetchAll(db)
            #expect(records.map { "\($0.player.name) \($0.team.name) \($0.players.map(\.name))" } == [
                #"Arthur Reds ["Arthur", "Barbara"]"#,
                #"Barbara Reds ["Arthur", "Barbara"]"#,
            ])
        }
    }

    @Test func aKeyPrefetchedForTwoScopesIsFoundInTheOrderOfTheRequest() throws {
        try withAssociationDatabase { db throws in
            let books = AssocPerson.hasMany(AssocBook.self, key: "books", using: ForeignKey(["authorId"]))
            let translatorFirst = AssocBook
                .including(required: AssocBook.translator.including(all: books))
                .including(required: AssocBook.author.including(all: books))
            let authorFirst = AssocBook
                .including(required: AssocBook.author.including(all: books))
                .including(required: AssocBook.translator.including(all: books))
            // Victor (the author) wrote the book; Anon (the translator) none.
            let row1 = try #require(try Row.fetchOne(db, translatorFirst))
            #expect(row1.prefetchedRows["books"]?.count == 0)
            let row2 = try #require(try Row.fetchOne(db, authorFirst))
            #expect(row2.prefetchedRows["books"]?.count == 1)
        }
    }

    @Test func prefetchedRowsOfRows() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam
                .including(all: AssocTeam.players.filter(Column("score") > 10).order(Column("name").desc))
                .filter(Column("id") > 0)
                .order(Column("name"))
            var rows: [Row] = []
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT * FROM "team" WHERE "id" > ? ORDER BY "name""#,
                #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE ("score" > ?) AND ("teamId" IN (?, ?)) ORDER BY "name" DESC"#,
            ])
            #expect(rows.map { $0["name"] as String } == ["Blues", "Reds"])
            #expect(rows[0].prefetchedRows["players"] == [])
            #expect(rows[1].prefetchedRows.keys == ["players"])
            #expect(rows[1].prefetchedRows["players"]?.map { $0["name"] as String } == ["Barbara", "Arthur"])
            #expect(rows[1].prefetchedRows["players"]?.first?["grdb_teamId"] == 1)
            #expect(rows[1].prefetchedRows["missing"] == nil)
        }
    }

    @Test func oneValueIsComparedWithEquality() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.including(all: AssocTeam.players).limit(1)
            let trace = try queryInterfaceTrace(db) { _ = try Row.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT * FROM "team" LIMIT 1"#,
                #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" = ?"#,
            ])
            let info = try #require(try TeamInfo.fetchOne(db, AssocTeam.including(all: AssocTeam.players)))
            #expect(info.players.count == 2)
        }
    }

    @Test func noRowNoPrefetchRequest() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.filter(Column("id") > 100).including(all: AssocTeam.players)
            var rows: [Row] = [Row()]
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, request) }
            #expect(trace == [#"SELECT * FROM "team" WHERE "id" > ?"#])
            #expect(rows.isEmpty)
        }
    }

    @Test func oneColumnOfTheAssociatedRecords() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.including(all: AssocTeam.players.select(Column("name")).forKey("names"))
            var infos: [TeamNames] = []
            let trace = try queryInterfaceTrace(db) { infos = try TeamNames.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT * FROM "team""#,
                #"SELECT "name", "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" IN (?, ?)"#,
            ])
            #expect(infos.map(\.names) == [["Arthur", "Barbara"], []])
        }
    }

    @Test func selfJoinAndPrefetchTogether() throws {
        try withAssociationDatabase { db throws in
            let request = AssocEmployee
                .including(optional: AssocEmployee.manager)
                .including(all: AssocEmployee.subordinates)
                .order(Column("id"))
            let infos = try EmployeeInfo.fetchAll(db, request)
            #expect(infos.map(\.employee.name) == ["Boss", "Worker"])
            #expect(infos.map(\.manager?.name) == [nil, "Boss"])
            #expect(infos.map { Set($0.subordinates.map(\.name)) } == [["Worker"], []])
        }
    }

    @Test func nestedPrefetches() throws {
        struct PersonInfo: Decodable, FetchableRecord {
            var person: AssocPerson
            var books: [AssocBook]
        }
        struct CountryInfo: Decodable, FetchableRecord {
            var country: AssocCountry
            var people: [PersonInfo]
        }
        try withAssociationDatabase { db throws in
            let books = AssocPerson.hasMany(AssocBook.self, key: "books", using: ForeignKey(["authorId"]))
            let request = AssocCountry.including(all: AssocCountry.hasMany(AssocPerson.self).including(all: books))
            var infos: [CountryInfo] = []
            let trace = try queryInterfaceTrace(db) { infos = try CountryInfo.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT * FROM "country""#,
                #"SELECT *, "countryCode" AS "grdb_countryCode" FROM "person" WHERE "countryCode" = ?"#,
                #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" = ?"#,
            ])
            #expect(infos.map { $0.people.map(\.person.name) } == [["Victor"]])
            #expect(infos.map { $0.people.map { $0.books.map(\.title) } } == [[["Les Mis"]]])
        }
    }

    @Test func joiningAToManyAssociation() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.joining(required: AssocTeam.players.filter(Column("score") > 100)).distinct()
            #expect(try generated(db, request).0 == #"SELECT DISTINCT "team".* FROM "team" JOIN "player" ON ("player"."teamId" = "team"."id") AND ("player"."score" > ?)"#)
            #expect(try request.fetchAll(db).map(\.name) == ["Reds"])
        }
    }

    @Test func hasOneThrough() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: AssocBook
            var country: AssocCountry?
        }
        try withAssociationDatabase { db throws in
            let country = AssocBook.hasOne(AssocCountry.self, through: AssocBook.author, using: AssocPerson.country)
            let request = AssocBook.including(optional: country)
            #expect(try generated(db, request).0 == #"SELECT "book".*, "country".* FROM "book" LEFT JOIN "person" ON "person"."id" = "book"."authorId" LEFT JOIN "country" ON "country"."code" = "person"."countryCode""#)
            let info = try #require(try BookInfo.fetchOne(db, request))
            #expect(info.country?.name == "France")
        }
    }

    @Test func hasManyThrough() throws {
        struct CountryInfo: Decodable, FetchableRecord {
            var country: AssocCountry
            var books: [AssocBook]
        }
        try withAssociationDatabase { db throws in
            var infos: [CountryInfo] = []
            let trace = try queryInterfaceTrace(db) {
                infos = try CountryInfo.fetchAll(db, AssocCountry.including(all: Self.countryBooks))
            }
            #expect(trace == [
                #"SELECT * FROM "country""#,
                #"SELECT "book".*, "person"."countryCode" AS "grdb_countryCode" FROM "book" JOIN "person" ON ("person"."id" = "book"."authorId") AND ("person"."countryCode" = ?)"#,
            ])
            #expect(infos.map { $0.books.map(\.title) } == [["Les Mis"]])

            let joined = AssocCountry.joining(required: Self.countryBooks)
            #expect(try generated(db, joined).0 == #"SELECT "country".* FROM "country" JOIN "person" ON "person"."countryCode" = "country"."code" JOIN "book" ON "book"."authorId" = "person"."id""#)
            #expect(try joined.fetchCount(db) == 1)
        }
    }

    @Test func throughABelongsToAndOrderedThrough() throws {
        try withAssociationDatabase { db throws in
            let books = AssocPerson.hasMany(AssocBook.self, key: "books", using: ForeignKey(["authorId"]))
            let sameAuthor = AssocBook.hasMany(AssocBook.self, through: AssocBook.author, using: books, key: "sameAuthorBooks")
            var rows: [Row] = []
            var trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, AssocBook.including(all: sameAuthor)) }
            #expect(trace == [
                #"SELECT * FROM "book""#,
                #"SELECT "book".*, "person"."id" AS "grdb_id" FROM "book" JOIN "person" ON ("person"."id" = "book"."authorId") AND ("person"."id" = ?)"#,
            ])
            #expect(rows[0].prefetchedRows["sameAuthorBooks"]?.map { $0["title"] as String } == ["Les Mis"])

            let book = try #require(try AssocBook.fetchOne(db))
            #expect(try generated(db, book.request(for: sameAuthor)).0 == #"SELECT "book".* FROM "book" JOIN "person" ON ("person"."id" = "book"."authorId") AND ("person"."id" = ?)"#)

            let ordered = AssocCountry.hasMany(
                AssocBook.self,
                through: AssocCountry.hasMany(AssocPerson.self).order(Column("name")),
                using: books.order(Column("year")))
            trace = try queryInterfaceTrace(db) { _ = try Row.fetchAll(db, AssocCountry.including(all: ordered)) }
            #expect(trace == [
                #"SELECT * FROM "country""#,
                #"SELECT "book".*, "person"."countryCode" AS "grdb_countryCode" FROM "book" JOIN "person" ON ("person"."id" = "book"."authorId") AND ("person"."countryCode" = ?) ORDER BY "book"."year", "person"."name""#,
            ])
        }
    }

    @Test func aCompositeForeignKeyReadsTheKeysFromACommonTableExpression() throws {
        try withAssociationDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE edition (bookId INTEGER, number INTEGER, PRIMARY KEY (bookId, number));
                CREATE TABLE copy (id INTEGER PRIMARY KEY, bookId INTEGER, number INTEGER,
                    FOREIGN KEY (bookId, number) REFERENCES edition (bookId, number));
                INSERT INTO edition VALUES (1, 2), (1, 3);
                INSERT INTO copy VALUES (10, 1, 2), (11, 1, 2), (12, NULL, NULL);
                """)
            let editions = Table("edition")
            let request = editions.including(all: editions.hasMany(Table("copy")))
                .filter(Column("number") > 0).order(Column("number")).limit(5)
            var rows: [Row] = []
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT * FROM "edition" WHERE "number" > ? ORDER BY "number" LIMIT 5"#,
                #"WITH "grdb_base" AS (SELECT "bookId", "number" FROM "edition" WHERE "number" > ? ORDER BY "number" LIMIT 5) SELECT *, "bookId" AS "grdb_bookId", "number" AS "grdb_number" FROM "copy" WHERE ("bookId", "number") IN "grdb_base""#,
            ])
            #expect(rows.map { $0.prefetchedRows["copies"]?.count } == [2, 0])
            #expect(rows[0].prefetchedRows["copies"]?.first == ["id": 10, "bookId": 1, "number": 2, "grdb_bookId": 1, "grdb_number": 2])
        }
    }

    @Test func cursorsDoNotPrefetch() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.including(all: AssocTeam.players)
            let error = #expect(throws: DatabaseError.self) { _ = try request.fetchCursor(db) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(throws: DatabaseError.self) { _ = try Row.fetchCursor(db, request) }
            // Counting ignores prefetched associations.
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func aPrefetchInsideAnIncludedAssociation() throws {
        struct TeamInfo: Decodable {
            var team: AssocTeam
            var mates: [AssocPlayer]
        }
        struct PlayerInfo: Decodable, FetchableRecord {
            var player: AssocPlayer
            var team: TeamInfo
        }
        try withAssociationDatabase { db throws in
            let request = AssocPlayer
                .including(required: AssocPlayer.team.including(all: AssocTeam.players.forKey("mates")))
                .order(Column("id"))
            var infos: [PlayerInfo] = []
            let trace = try queryInterfaceTrace(db) { infos = try PlayerInfo.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "player"."id""#,
                #"SELECT "player".*, "team"."id" AS "grdb_id" FROM "player" JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."id" = ?)"#,
            ])
            #expect(infos.map(\.player.name) == ["Arthur", "Barbara"])
            #expect(infos.map { $0.team.mates.map(\.name) } == [["Arthur", "Barbara"], ["Arthur", "Barbara"]])

            let row = try #require(try Row.fetchOne(db, request))
            // As in GRDB, the row sees the rows prefetched for its scopes.
            #expect(row.prefetchedRows.isEmpty == false)
            #expect(row.prefetchedRows["mates"]?.count == 2)
            #expect(row.scopes["team"]?.prefetchedRows["mates"]?.count == 2)
            #expect(try request.databaseRegion(db).isModified(byEventsOfKind: .insert(tableName: "player")))
        }
    }
}

/// The debug description of rows with prefetched associations, as GRDB prints it.
@Suite struct PrefetchedRowsDescriptionTests {
    @Test func debugDescriptionCountsPrefetchedRows() throws {
        try withAssociationDatabase { db throws in
            let rows = try Row.fetchAll(db, AssocTeam.including(all: AssocTeam.players).including(optional: AssocTeam.captain))
            #expect(rows[0].debugDescription == """
                ▿ [id:1 name:"Reds"]
                  unadapted: [id:1 name:"Reds" id:1 teamId:1 name:"Arthur" score:100]
                  - captain: [id:1 teamId:1 name:"Arthur" score:100]
                  + players: 2 rows
                """)
            let blues = try #require(try Row.fetchOne(db, AssocTeam.including(all: AssocTeam.players).filter(Column("id") == 2)))
            #expect(blues.debugDescription == """
                ▿ [id:2 name:"Blues"]
                  + players: 0 row
                """)
        }
    }
}

/// The observed region of requests with associations.
@Suite struct AssociationRegionTests {
    @Test func joinedAndPrefetchedTablesAreInTheRegion() throws {
        try withAssociationDatabase { db throws in
            let joined = try AssocPlayer.including(required: AssocPlayer.team).databaseRegion(db)
            #expect(joined.isModified(byEventsOfKind: .insert(tableName: "team")))
            #expect(joined.isModified(byEventsOfKind: .insert(tableName: "player")))

            let prefetched = try AssocTeam.filter(Column("id") == 1).including(all: AssocTeam.players).databaseRegion(db)
            #expect(prefetched.isModified(byEventsOfKind: .insert(tableName: "player")))
            #expect(!prefetched.isModified(byEventsOfKind: .insert(tableName: "book")))
            #expect(prefetched.description.contains("team(id,name)[1]"))

            let through = try AssocCountry.including(all: AssocCountry.hasMany(
                AssocBook.self,
                through: AssocCountry.hasMany(AssocPerson.self),
                using: AssocPerson.hasMany(AssocBook.self, key: "books", using: ForeignKey(["authorId"]))))
                .databaseRegion(db)
            #expect(through.isModified(byEventsOfKind: .insert(tableName: "book")))
            #expect(through.isModified(byEventsOfKind: .insert(tableName: "person")))
        }
    }
}
