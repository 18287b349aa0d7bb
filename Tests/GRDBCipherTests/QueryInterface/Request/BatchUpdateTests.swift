import Foundation
import Testing
@testable import GRDBCipher

/// A player whose updates are `UPDATE OR IGNORE` by default.
private struct IgnoringPlayer: Codable, MutablePersistableRecord, FetchableRecord {
    static let databaseTableName = "player"
    static let persistenceConflictPolicy = PersistenceConflictPolicy(update: .ignore)
    var id: Int64
    var name: String
}

/// Batch updates (`updateAll`) and batch deletes: the SQL GRDB writes for
/// them, traced, and what they change in an encrypted database.
@Suite struct BatchUpdateTests {
    /// The scores of the players, by id.
    private func scores(_ db: Database) throws -> [Int?] {
        try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
    }

    private func names(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
    }

    @Test func updateAllWritesTheAssignmentsOfEveryRow() throws {
        try withTeamsAndPlayers { db throws in
            var changes = 0
            let sql = try queryInterfaceTrace(db) { () throws in
                changes = try GenPlayer.updateAll(db, Column("score") += 10)
            }
            #expect(sql == [#"UPDATE "player" SET "score" = "score" + ?"#])
            #expect(changes == 4)
            #expect(try scores(db) == [110, 1010, nil, 510])
        }
    }

    @Test func updateAllOfAFilteredRequestBindsItsValues() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.filter(Column("teamId") == 1)
            let assignments = [Column("score").set(to: 0), Column("name").set(to: "O'Brien; --")]
            let (sql, arguments) = try #require(try request.relation.updateSQL(
                db, conflictResolution: .abort, assignments: assignments))
            #expect(sql == #"UPDATE "player" SET "score" = ?, "name" = ? WHERE "teamId" = ?"#)
            #expect(arguments == [0, "O'Brien; --", 1])
            #expect(try request.updateAll(db, assignments) == 2)
            #expect(try scores(db) == [0, 0, nil, 500])
            #expect(try names(db) == ["O'Brien; --", "O'Brien; --", "Craig", "Diane"])
        }
    }

    @Test func everyAssignmentOperatorWritesGRDBsSQL() throws {
        try withTeamsAndPlayers { db throws in
            let cases: [(ColumnAssignment, String)] = [
                (Column("score").set(to: 3), #""score" = ?"#),
                (Column("score").set(to: nil), #""score" = NULL"#),
                (Column("score").set(to: Column("id") * 2), #""score" = "id" * ?"#),
                (Column("score") += 3, #""score" = "score" + ?"#),
                (Column("score") -= 3, #""score" = "score" - ?"#),
                (Column("score") *= 3, #""score" = "score" * ?"#),
                (Column("score") /= 3, #""score" = "score" / ?"#),
                (Column("score") &= 3, #""score" = "score" & ?"#),
                (Column("score") |= 3, #""score" = "score" | ?"#),
                (Column("score") <<= 3, #""score" = "score" << ?"#),
                (Column("score") >>= 3, #""score" = "score" >> ?"#),
            ]
            for (assignment, expected) in cases {
                let (sql, _) = try #require(try GenPlayer.all().relation.updateSQL(
                    db, conflictResolution: .abort, assignments: [assignment]))
                #expect(sql == #"UPDATE "player" SET "# + expected)
            }
            // Arthur: 100 -> 100 * 2 - 50 = 150, then 150 / 4 = 37, 37 | 64 = 101, 101 << 1 = 202
            let arthur = GenPlayer.filter(key: 1)
            try arthur.updateAll(db, Column("score") *= 2)
            try arthur.updateAll(db, Column("score") -= 50)
            try arthur.updateAll(db, Column("score") /= 4)
            try arthur.updateAll(db, Column("score") |= 64)
            try arthur.updateAll(db, Column("score") <<= 1)
            #expect(try scores(db).first == 202)
        }
    }

    @Test func closuresAssignTheRecordsColumns() throws {
        try withTeamsAndPlayers { db throws in
            let sql = try queryInterfaceTrace(db) { () throws in
                try GenPlayer.filter { $0.teamId == 1 }.updateAll(db) { $0.score *= 2 }
                try GenPlayer.filter { $0.teamId == 2 }.updateAll(db) { [$0.score.set(to: 1), $0.name.set(to: "Cyd")] }
                try GenPlayer.updateAll(db) { $0.score += 1 }
                try GenPlayer.updateAll(db) { [$0.name.set(to: $0.name)] }
            }
            #expect(sql == [
                #"UPDATE "player" SET "score" = "score" * ? WHERE "teamId" = ?"#,
                #"UPDATE "player" SET "score" = ?, "name" = ? WHERE "teamId" = ?"#,
                #"UPDATE "player" SET "score" = "score" + ?"#,
                #"UPDATE "player" SET "name" = "name""#,
            ])
            #expect(try scores(db) == [201, 2001, 2, 501])
            #expect(try names(db) == ["Arthur", "Barbara", "Cyd", "Diane"])
        }
    }

    @Test func tablesUpdateLikeRecordTypes() throws {
        try withTeamsAndPlayers { db throws in
            let sql = try queryInterfaceTrace(db) { () throws in
                #expect(try Table("player").updateAll(db, Column("score").set(to: 5)) == 4)
                #expect(try Table("player").updateAll(db, [Column("score") -= 1]) == 4)
                #expect(try Table<GenPlayer>("player").updateAll(db) { $0.score *= 3 } == 4)
                #expect(try Table<GenPlayer>("player").filter(key: 1).updateAll(db) { [$0.score.set(to: nil)] } == 1)
            }
            #expect(sql == [
                #"UPDATE "player" SET "score" = ?"#,
                #"UPDATE "player" SET "score" = "score" - ?"#,
                #"UPDATE "player" SET "score" = "score" * ?"#,
                #"UPDATE "player" SET "score" = NULL WHERE "id" = ?"#,
            ])
            #expect(try scores(db) == [nil, 12, 12, 12])
        }
    }

    @Test func noAssignmentUpdatesNothingAndRunsNoStatement() throws {
        try withTeamsAndPlayers { db throws in
            var results: [Int] = []
            let sql = try queryInterfaceTrace(db) { () throws in
                results.append(try GenPlayer.updateAll(db, []))
                results.append(try GenPlayer.all().updateAll(db, Column("score").noOverwrite))
                results.append(try Table("player").updateAll(db, [ColumnAssignment]()))
            }
            #expect(sql.isEmpty)
            #expect(results == [0, 0, 0])
        }
    }

    @Test func onConflictWritesTheResolution() throws {
        try withTeamsAndPlayers { db throws in
            try db.execute(sql: "CREATE UNIQUE INDEX playerName ON player(name)")
            var changes = 0
            let sql = try queryInterfaceTrace(db) { () throws in
                changes = try GenPlayer.updateAll(db, onConflict: .ignore, Column("name").set(to: "Arthur"))
                try GenPlayer.updateAll(db, onConflict: .replace, Column("score") += 0)
                try GenPlayer.updateAll(db, onConflict: .abort, Column("score") += 0)
            }
            #expect(sql == [
                #"UPDATE OR IGNORE "player" SET "name" = ?"#,
                #"UPDATE OR REPLACE "player" SET "score" = "score" + ?"#,
                #"UPDATE "player" SET "score" = "score" + ?"#,
            ])
            // Only Arthur's row takes the name (its own); the others are skipped.
            #expect(changes == 1)
            #expect(try names(db) == ["Arthur", "Barbara", "Craig", "Diane"])
        }
    }

    @Test func aConflictAbortsTheWholeStatement() throws {
        try withTeamsAndPlayers { db throws in
            try db.execute(sql: "CREATE UNIQUE INDEX playerName ON player(name)")
            // Arthur is renamed first, then Barbara's renaming fails: ABORT
            // undoes Arthur's as well.
            let error = #expect(throws: DatabaseError.self) {
                try GenPlayer.order(Column("id")).updateAll(db, Column("name").set(to: "Zoe"))
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.sql == #"UPDATE "player" SET "name" = ?"#)
            #expect(try names(db) == ["Arthur", "Barbara", "Craig", "Diane"])
        }
    }

    @Test func anUnknownColumnThrowsWithTheSQL() throws {
        try withTeamsAndPlayers { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try GenPlayer.filter(Column("teamId") == 1).updateAll(db, Column("nope").set(to: 1))
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message?.contains("no such column: nope") == true)
            #expect(error?.sql == #"UPDATE "player" SET "nope" = ? WHERE "teamId" = ?"#)
            #expect(try scores(db) == [100, 1000, nil, 500])
        }
    }

    @Test func theRecordsConflictPolicyIsTheDefault() throws {
        try withTeamsAndPlayers { db throws in
            try db.execute(sql: "CREATE UNIQUE INDEX playerName ON player(name)")
            let sql = try queryInterfaceTrace(db) { () throws in
                #expect(try IgnoringPlayer.updateAll(db, Column("name").set(to: "Arthur")) == 1)
                #expect(try Table<IgnoringPlayer>("player").updateAll(db, Column("name").set(to: "Arthur")) == 1)
                // An explicit resolution wins over the policy.
                #expect(throws: DatabaseError.self) {
                    try IgnoringPlayer.updateAll(db, onConflict: .abort, Column("name").set(to: "Arthur"))
                }
                // Rows and values know no policy.
                #expect(throws: DatabaseError.self) {
                    try Table("player").updateAll(db, Column("name").set(to: "Arthur"))
                }
            }
            #expect(sql == [
                #"UPDATE OR IGNORE "player" SET "name" = ?"#,
                #"UPDATE OR IGNORE "player" SET "name" = ?"#,
                #"UPDATE "player" SET "name" = ?"#,
                #"UPDATE "player" SET "name" = ?"#,
            ])
        }
    }

    @Test func aLimitedRequestUpdatesWithOrderAndLimit() throws {
        try withTeamsAndPlayers { db throws in
            var changes = 0
            let sql = try queryInterfaceTrace(db) { () throws in
                changes = try GenPlayer.order(Column("id").desc).limit(2).updateAll(db, Column("score").set(to: 7))
                try GenPlayer.order(Column("id")).limit(1, offset: 1).updateAll(db, Column("score").set(to: 8))
                try GenPlayer.order(Column("id")).reversed().limit(1).updateAll(db, Column("name").set(to: "Dee"))
                // Without a limit, the order does not matter.
                try GenPlayer.order(Column("id")).filter(key: 1).updateAll(db, Column("score") += 1)
            }
            #expect(sql == [
                #"UPDATE "player" SET "score" = ? ORDER BY "id" DESC LIMIT 2"#,
                #"UPDATE "player" SET "score" = ? ORDER BY "id" LIMIT 1 OFFSET 1"#,
                #"UPDATE "player" SET "name" = ? ORDER BY "id" DESC LIMIT 1"#,
                #"UPDATE "player" SET "score" = "score" + ? WHERE "id" = ?"#,
            ])
            #expect(changes == 2)
            #expect(try scores(db) == [101, 8, 7, 7])
            #expect(try names(db) == ["Arthur", "Barbara", "Craig", "Dee"])
        }
    }

    @Test func aGroupedRequestUpdatesThroughItsPrimaryKey() throws {
        try withTeamsAndPlayers { db throws in
            let withScore = try GenPlayer.filter(Column("score") != nil).fetchCount(db)
            var changes = 0
            let sql = try queryInterfaceTrace(db) { () throws in
                changes = try GenPlayer.filter(Column("score") != nil).group(Column("id"))
                    .updateAll(db, Column("score").set(to: 0))
            }
            #expect(sql == [
                #"UPDATE "player" SET "score" = ? WHERE "id" IN (SELECT "id" FROM "player" WHERE "score" IS NOT NULL GROUP BY "id")"#,
            ])
            #expect(changes == withScore)
            #expect(try scores(db).filter { $0 == 0 }.count == withScore)

            // Groups of several rows do not say which row to update: the
            // request throws, and nothing changes.
            let before = try scores(db)
            #expect(throws: DatabaseError.self) {
                try GenPlayer.all().group(Column("teamId")).updateAll(db, Column("score").set(to: 1))
            }
            #expect(try scores(db) == before)
        }
    }

    @Test func distinctAndAliasesUpdateTheTable() throws {
        try withTeamsAndPlayers { db throws in
            let p = TableAlias(name: "p")
            let sql = try queryInterfaceTrace(db) { () throws in
                try GenPlayer.filter(Column("teamId") == 1).distinct().updateAll(db, Column("score") += 1)
                try GenPlayer.aliased(p).filter(p[Column("score")] > 200).updateAll(db, Column("score") += 1)
            }
            #expect(sql == [
                #"UPDATE "player" SET "score" = "score" + ? WHERE "teamId" = ?"#,
                #"UPDATE "player" AS "p" SET "score" = "p"."score" + ? WHERE "p"."score" > ?"#,
            ])
            #expect(try scores(db) == [101, 1002, nil, 501])
        }
    }

    @Test func anUpdateWithACommonTableExpressionStartsWithWith() throws {
        try withTeamsAndPlayers { db throws in
            let reds = CommonTableExpression(named: "reds", request: GenTeam.filter(Column("name") == "Reds").select(Column("id")))
            var changes = 0
            let sql = try queryInterfaceTrace(db) { () throws in
                changes = try GenPlayer.with(reds).filter(reds.contains(Column("teamId")))
                    .updateAll(db, Column("score").set(to: 1))
            }
            #expect(sql == [
                #"WITH "reds" AS (SELECT "id" FROM "team" WHERE "name" = ?) UPDATE "player" SET "score" = ? WHERE "teamId" IN "reds""#,
            ])
            #expect(changes == 2)
            #expect(try scores(db) == [1, 1, nil, 500])
        }
    }

    // MARK: - Batch deletes

    @Test func deletesWriteGRDBsSQL() throws {
        try withTeamsAndPlayers { db throws in
            var deleted: [Int] = []
            let sql = try queryInterfaceTrace(db) { () throws in
                deleted.append(try GenPlayer.filter(Column("teamId") == 1).distinct().order(Column("name")).deleteAll(db))
                deleted.append(try GenPlayer.order(Column("id").desc).limit(1).deleteAll(db))
            }
            #expect(sql == [
                #"DELETE FROM "player" WHERE "teamId" = ?"#,
                #"DELETE FROM "player" ORDER BY "id" DESC LIMIT 1"#,
            ])
            #expect(deleted == [2, 1])
            #expect(try names(db) == ["Craig"])
        }
    }

    @Test func aGroupedDeleteOfAWithoutRowIDTableUsesItsKey() throws {
        try inEncryptedDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT PRIMARY KEY, continent TEXT) WITHOUT ROWID;
                INSERT INTO country VALUES ('FR', 'Europe'), ('DE', 'Europe'), ('JP', 'Asia');
                """)
            var deleted = 0
            let sql = try queryInterfaceTrace(db) { () throws in
                deleted = try Table("country").filter(Column("continent") == "Asia").group(Column("code")).deleteAll(db)
            }
            #expect(sql == [#"DELETE FROM "country" WHERE "code" IN (SELECT "code" FROM "country" WHERE "continent" = ? GROUP BY "code")"#])
            #expect(deleted == 1)
            #expect(try String.fetchAll(db, sql: "SELECT code FROM country ORDER BY code") == ["DE", "FR"])
            #expect(throws: DatabaseError.self) {
                try Table("country").select(min(Column("code"))).group(Column("continent")).deleteAll(db)
            }
            #expect(try String.fetchAll(db, sql: "SELECT code FROM country ORDER BY code") == ["DE", "FR"])
        }
    }
}
