import Foundation
import Testing
@testable import GRDBCipher

// Methods written once for every request of a record type, as GRDB's
// documentation advises.
extension DerivableRequest<GenPlayer> {
    fileprivate func named(_ name: String) -> Self {
        filter(GenPlayer.Columns.name == name)
    }

    fileprivate func bestFirst() -> Self {
        order { [$0.score.desc, $0.name] }
    }

    fileprivate func scoreAndName() -> Self {
        select(Column("score"), Column("name"))
    }

    fileprivate func byKey(_ id: Int64) -> Self {
        filter(key: id)
    }

    fileprivate func teamsWithScore(above score: Int) -> Self {
        select(Column("teamId"), sum(Column("score"))).group(Column("teamId")).having(sum(Column("score")) > score)
    }
}

extension DerivableRequest<GenPlayer> {
    fileprivate func sorted(by term: (DatabaseComponents) -> any SQLOrderingTerm) -> Self {
        order(term(GenPlayer.databaseComponents))
    }
}

/// A generic function over any derivable request of players.
private func refined<R: DerivableRequest<GenPlayer>>(_ request: R) -> R {
    request.filter(sql: "score IS NOT NULL").order(Column("name")).reversed()
}

/// The request protocols (`DerivableRequest` and the protocols it refines):
/// methods built in a generic context generate the same SQL as on the
/// concrete request, and the `...WhenConnected` methods resolve their
/// closure when the request runs.
@Suite struct RequestProtocolsTests {
    @Test func genericMethodsGenerateTheConcreteSQL() throws {
        try withTeamsAndPlayers { db throws in
            let generic = GenPlayer.all().named("Arthur").bestFirst().scoreAndName()
            let concrete = GenPlayer
                .filter(GenPlayer.Columns.name == "Arthur")
                .order(Column("score").desc, Column("name"))
                .select(Column("score"), Column("name"))
            #expect(try generated(db, generic).0 == generated(db, concrete).0)
            #expect(try generated(db, generic).0
                == #"SELECT "score", "name" FROM "player" WHERE "name" = ? ORDER BY "score" DESC, "name""#)
            #expect(try Row.fetchAll(db, generic) == [["score": 100, "name": "Arthur"]])

            // A key filter knows it matches one row: no LIMIT 1, as on the concrete request.
            #expect(try generated(db, GenPlayer.all().byKey(2), single: true).0
                == generated(db, GenPlayer.all().filter(key: 2), single: true).0)
            #expect(try GenPlayer.all().byKey(2).fetchOne(db)?.name == "Barbara")

            let grouped = GenPlayer.all().teamsWithScore(above: 500)
            #expect(try generated(db, grouped).0
                == #"SELECT "teamId", SUM("score") FROM "player" GROUP BY "teamId" HAVING SUM("score") > ?"#)
            #expect(try Row.fetchAll(db, grouped) == [["teamId": 1, "SUM(\"score\")": 1100]])

            let names = try refined(GenPlayer.all()).fetchAll(db).map(\.name)
            #expect(names == ["Diane", "Barbara", "Arthur"])
        }
    }

    @Test func whenConnectedClausesReadTheDatabase() throws {
        try withTeamsAndPlayers { db throws in
            // Closures that need the schema: the columns of the player table.
            let request = GenPlayer.all()
                .selectWhenConnected { db in try db.columns(in: "player").prefix(3).map { Column($0.name) } }
                .filterWhenConnected { db in Column(try db.primaryKey("player").columns[0]) > 1 }
                .orderWhenConnected { db in try db.primaryKey("player").columns.map { Column($0).desc } }
            #expect(try generated(db, request).0
                == #"SELECT "id", "teamId", "name" FROM "player" WHERE "id" > ? ORDER BY "id" DESC"#)
            #expect(try Row.fetchAll(db, request).map { $0["name"] as String } == ["Diane", "Craig", "Barbara"])
            #expect(try Row.fetchAll(db, request.reversed()).map { $0["name"] as String } == ["Barbara", "Craig", "Diane"])

            let grouped = GenPlayer.all()
                .select(Column("teamId"), count(Column("id")))
                .groupWhenConnected { _ in [Column("teamId")] }
                .havingWhenConnected { _ in count(Column("id")) > 1 }
            #expect(try generated(db, grouped).0
                == #"SELECT "teamId", COUNT("id") FROM "player" GROUP BY "teamId" HAVING COUNT("id") > ?"#)
            #expect(try Row.fetchAll(db, grouped) == [["teamId": 1, "COUNT(\"id\")": 2]])

            let annotated = GenPlayer.all().select(Column("name"))
                .annotatedWhenConnected { _ in [Column("score")] }
                .filter(key: 1)
            #expect(try Row.fetchOne(db, annotated) == ["name": "Arthur", "score": 100])
        }
    }

    /// A selection known only when the request runs is resolved before the
    /// count and the single-row decision, as GRDB does.
    @Test func deferredSelectionsCountAndAggregateAsResolved() throws {
        try withTeamsAndPlayers { db throws in
            let names = GenPlayer.all().selectWhenConnected { _ in [Column("name")] }
            var count = 0
            let counts = try queryInterfaceTrace(db) { count = try names.fetchCount(db) }
            #expect(count == 4)
            #expect(counts == [#"SELECT COUNT(*) FROM "player""#])
            let best = GenPlayer.all().selectWhenConnected { _ in [max(Column("score"))] }
            #expect(try generated(db, best, single: true).0 == #"SELECT MAX("score") FROM "player""#)
            #expect(try Int.fetchOne(db, best) == 1000)
            let qualified = TableAlias<GenPlayer>(name: "p")
            let aliased = GenPlayer.all().aliased(qualified).selectWhenConnected { _ in [qualified[Column("name")]] }
            #expect(try generated(db, aliased).0 == #"SELECT "p"."name" FROM "player" "p""#)
        }
    }

    /// A `...WhenConnected` closure that returns nothing gives no clause, as
    /// in GRDB (a sort built from query parameters may be empty).
    @Test func emptyClausesWhenConnectedAreNoClause() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.all()
                .annotatedWhenConnected { _ in [] }
                .groupWhenConnected { _ in [] }
                .orderWhenConnected { _ in [] }
            #expect(try generated(db, request).0 == #"SELECT * FROM "player""#)
            #expect(try generated(db, request.reversed()).0 == #"SELECT * FROM "player""#)
            #expect(try request.fetchCount(db) == 4)
            // A concrete grouping replaces a deferred one, and the other way round.
            #expect(try generated(db, GenPlayer.all().groupWhenConnected { _ in [Column("teamId")] }.group(Column("id"))).0
                == #"SELECT * FROM "player" GROUP BY "id""#)
            #expect(try generated(db, GenPlayer.all().group(Column("id")).groupWhenConnected { _ in [Column("teamId")] }).0
                == #"SELECT * FROM "player" GROUP BY "teamId""#)
            // No selection at all is an error (GRDB traps).
            let error = #expect(throws: DatabaseError.self) {
                try GenPlayer.all().selectWhenConnected { _ in [] }.fetchAll(db)
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "Can't generate SQL with an empty selection")
        }
    }

    /// The closures run each time the request runs: their SQL is not kept.
    @Test func closuresWhenConnectedRunAtEachFetch() throws {
        try withTeamsAndPlayers { db throws in
            let calls = LockedValue(0)
            let request = GenPlayer.all().orderWhenConnected { _ in
                calls.withLock { $0 += 1 }
                return [Column("name")]
            }
            _ = try request.fetchAll(db)
            _ = try request.fetchAll(db)
            #expect(calls.withLock { $0 } == 2)
        }
    }

    /// `DatabaseComponents` names the record's columns in request extensions.
    @Test func databaseComponentsInRequestExtensions() throws {
        try withTeamsAndPlayers { db throws in
            #expect(try GenPlayer.all().sorted(by: { $0.name }).fetchAll(db).map(\.name) == ["Arthur", "Barbara", "Craig", "Diane"])
        }
    }

    @Test func keyOrderAndGroupingFromTheSchema() throws {
        try withTeamsAndPlayers { db throws in
            #expect(try generated(db, GenPlayer.all().orderByPrimaryKey()).0 == #"SELECT * FROM "player" ORDER BY "id""#)
            #expect(try generated(db, GenPlayer.select(Column("teamId")).groupByPrimaryKey()).0
                == #"SELECT "teamId" FROM "player" GROUP BY "id""#)
            try db.execute(sql: "CREATE TABLE t (a, b, PRIMARY KEY (a, b)) WITHOUT ROWID; CREATE TABLE u (x)")
            #expect(try generated(db, Table("t").all().groupByPrimaryKey()).0 == #"SELECT * FROM "t" GROUP BY "a", "b""#)
            #expect(try generated(db, Table("u").all().groupByPrimaryKey()).0 == #"SELECT * FROM "u" GROUP BY "rowid""#)
        }
    }

    @Test func aliasesAndTableNameThroughTheProtocol() throws {
        try withTeamsAndPlayers { db throws in
            func aliasedRequest<R: DerivableRequest<GenPlayer>>(_ request: R, _ alias: TableAlias<GenPlayer>) -> R {
                request.aliased(alias).filter(alias[Column("score")] > 500)
            }
            let alias = TableAlias<GenPlayer>(name: "p")
            let request = aliasedRequest(GenPlayer.all(), alias)
            #expect(request.databaseTableName == "player")
            #expect(try generated(db, request).0 == #"SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?"#)
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara"])
        }
    }
}
