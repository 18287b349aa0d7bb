import Foundation
import Testing
@testable import GRDBCipher

private struct KeyedPlayer: TableRecord, FetchableRecord, Decodable, Identifiable {
    static let databaseTableName = "player"
    var id: Int64
    var name: String
}

private struct Citizenship: TableRecord, FetchableRecord, Decodable, Identifiable {
    var id: String { "\(citizenId)-\(countryCode)" }
    var citizenId: Int64
    var countryCode: String
}

/// `orderByPrimaryKey`, `withStableOrder`, `selectPrimaryKey`, `selectID`:
/// the key is read from the schema when the SQL is generated.
@Suite struct PrimaryKeyRequestTests {
    /// The players' database, with a composite-key table, a table without
    /// an explicit primary key, and a view.
    private func withSchema(_ body: (Database) throws -> Void) throws {
        try withTeamsAndPlayers { db throws in
            try db.execute(sql: """
                CREATE TABLE citizenship (citizenId INTEGER NOT NULL, countryCode TEXT NOT NULL, since INTEGER,
                    PRIMARY KEY (citizenId, countryCode));
                INSERT INTO citizenship VALUES (2, 'FR', 2000), (1, 'US', 1990), (1, 'FR', 1980);
                CREATE TABLE note (text TEXT);
                INSERT INTO note VALUES ('b'), ('a');
                CREATE VIEW ranking AS SELECT name, score FROM player;
                """)
            try body(db)
        }
    }

    @Test func orderByPrimaryKeyReplacesTheOrder() throws {
        try withSchema { db throws in
            #expect(try generated(db, GenPlayer.orderByPrimaryKey()).0 == #"SELECT * FROM "player" ORDER BY "id""#)
            #expect(try generated(db, GenPlayer.order(Column("name")).orderByPrimaryKey()).0
                == #"SELECT * FROM "player" ORDER BY "id""#)
            #expect(try generated(db, GenPlayer.orderByPrimaryKey().order(Column("name"))).0
                == #"SELECT * FROM "player" ORDER BY "name""#)
            #expect(try generated(db, GenPlayer.orderByPrimaryKey().reversed()).0
                == #"SELECT * FROM "player" ORDER BY "id" DESC"#)
            #expect(try generated(db, GenPlayer.orderByPrimaryKey().unordered()).0 == #"SELECT * FROM "player""#)

            let citizenships = Citizenship.orderByPrimaryKey()
            #expect(try generated(db, citizenships).0
                == #"SELECT * FROM "citizenship" ORDER BY "citizenId", "countryCode""#)
            #expect(try citizenships.fetchAll(db).map(\.id) == ["1-FR", "1-US", "2-FR"])
            #expect(try Table("note").orderByPrimaryKey().fetchAll(db).map { $0["text"] as String } == ["b", "a"])
            #expect(try generated(db, Table("note").orderByPrimaryKey()).0 == #"SELECT * FROM "note" ORDER BY "rowid""#)

            let p = TableAlias(name: "p")
            #expect(try generated(db, GenPlayer.aliased(p).orderByPrimaryKey()).0
                == #"SELECT "p".* FROM "player" "p" ORDER BY "p"."id""#)
        }
    }

    @Test func orderByPrimaryKeyOfAViewThrows() throws {
        try withSchema { db throws in
            let error = #expect(throws: DatabaseError.self) { try Table("ranking").orderByPrimaryKey().fetchAll(db) }
            #expect(error?.message == "database view ranking has no primary key")
        }
    }

    @Test func withStableOrderAppendsThePrimaryKey() throws {
        try withSchema { db throws in
            let stable = GenPlayer.order(Column("teamId")).withStableOrder()
            #expect(try generated(db, stable).0 == #"SELECT * FROM "player" ORDER BY "teamId", "id""#)
            #expect(try stable.fetchAll(db).map(\.id) == [4, 1, 2, 3])
            #expect(try generated(db, stable.reversed()).0 == #"SELECT * FROM "player" ORDER BY "teamId" DESC, "id" DESC"#)
            #expect(try stable.reversed().fetchAll(db).map(\.id) == [3, 2, 1, 4])
            // Reversed first, then made stable: the key is reversed too, as in GRDB.
            #expect(try generated(db, GenPlayer.order(Column("teamId")).reversed().withStableOrder()).0
                == #"SELECT * FROM "player" ORDER BY "teamId" DESC, "id" DESC"#)
            #expect(try generated(db, GenPlayer.all().withStableOrder()).0 == #"SELECT * FROM "player" ORDER BY "id""#)
            // A later order replaces everything; unordered() too.
            #expect(try generated(db, stable.order(Column("name"))).0 == #"SELECT * FROM "player" ORDER BY "name""#)
            #expect(try generated(db, stable.unordered()).0 == #"SELECT * FROM "player""#)
            #expect(try generated(db, Table("citizenship").order(Column("since")).withStableOrder()).0
                == #"SELECT * FROM "citizenship" ORDER BY "since", "citizenId", "countryCode""#)
            #expect(try generated(db, Table("note").all().withStableOrder()).0 == #"SELECT * FROM "note" ORDER BY "rowid""#)
        }
    }

    @Test func withStableOrderOfAViewOrdersByEveryColumn() throws {
        try withSchema { db throws in
            let request = Table("ranking").order(Column("score")).withStableOrder()
            #expect(try generated(db, request).0 == #"SELECT * FROM "ranking" ORDER BY "score", 1, 2"#)
            #expect(try request.fetchAll(db).map { $0["name"] as String } == ["Craig", "Arthur", "Diane", "Barbara"])
            // Column positions are literal orderings, which cannot be
            // reversed: the fetch throws (GRDB traps).
            let names = Table("ranking").select(Column("name")).withStableOrder().reversed()
            let error = #expect(throws: DatabaseError.self) { try String.fetchAll(db, names) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
        }
    }

    @Test func withStableOrderOrdersJoinedAndPrefetchedAssociations() throws {
        // The SQL GRDB 7.10 generates for the same requests.
        try withAssociationDatabase { db throws in
            let joined = AssocPlayer.including(required: AssocPlayer.team).withStableOrder()
            #expect(try generated(db, joined).0
                == #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" "#
                + #"ORDER BY "player"."id", "team"."id""#)
            let ordered = AssocTeam.including(optional: AssocTeam.players.order(Column("name").desc)).withStableOrder()
            #expect(try generated(db, ordered).0.hasSuffix(#"ORDER BY "team"."id", "player"."name" DESC, "player"."id""#))
            let prefetched = AssocTeam.including(all: AssocTeam.players).withStableOrder()
            let trace = try queryInterfaceTrace(db) { _ = try Row.fetchAll(db, prefetched) }
            #expect(trace == [
                #"SELECT * FROM "team" ORDER BY "id""#,
                #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" IN (?, ?) ORDER BY "id""#,
            ])
        }
    }

    @Test func selectPrimaryKeyAndSelectID() throws {
        try withSchema { db throws in
            let ids = GenPlayer.filter(Column("score") > 200).selectPrimaryKey(as: Int64.self)
            #expect(try generated(db, ids).0 == #"SELECT "id" FROM "player" WHERE "score" > ?"#)
            #expect(try ids.fetchAll(db) == [2, 4])
            #expect(try GenPlayer.selectPrimaryKey(as: Int64.self).fetchSet(db) == [1, 2, 3, 4])
            #expect(try Table("player").selectPrimaryKey(as: Int64.self).fetchCount(db) == 4)

            let keys = Citizenship.selectPrimaryKey(as: Row.self).orderByPrimaryKey()
            #expect(try generated(db, keys).0
                == #"SELECT "citizenId", "countryCode" FROM "citizenship" ORDER BY "citizenId", "countryCode""#)
            #expect(try keys.fetchAll(db) == [
                ["citizenId": 1, "countryCode": "FR"], ["citizenId": 1, "countryCode": "US"],
                ["citizenId": 2, "countryCode": "FR"]])
            #expect(try generated(db, Table("note").selectPrimaryKey(as: Int64.self)).0 == #"SELECT "rowid" FROM "note""#)

            let playerIDs = KeyedPlayer.filter(Column("teamId") == 1).selectID()
            #expect(try generated(db, playerIDs).0 == #"SELECT "id" FROM "player" WHERE "teamId" = ?"#)
            #expect(try playerIDs.fetchAll(db) == [1, 2])
            #expect(try KeyedPlayer.selectID().fetchCount(db) == 4)
            #expect(try Table<KeyedPlayer>("player").selectID().fetchSet(db) == [1, 2, 3, 4])
        }
    }

    @Test func selectIDOfACompositeKeyThrows() throws {
        try withSchema { db throws in
            let error = #expect(throws: DatabaseError.self) { try Citizenship.selectID().fetchAll(db) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(throws: DatabaseError.self) { try Table("ranking").selectPrimaryKey(as: Row.self).fetchAll(db) }
        }
    }
}
