import Foundation
import Testing
@testable import GRDBCipher

private struct ExistsTeam: TableRecord {
    static let databaseTableName = "team"
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let everything = AllColumns()
        static let byNameDesc = Column("name").desc
    }
}

private struct ExistsMembership: TableRecord {
    static let databaseTableName = "membership"
}

private struct ExistsNote: TableRecord {
    static let databaseTableName = "note"
}

private struct ExistsPlayer: TableRecord {
    static let databaseTableName = "player"
    static let team = belongsTo(ExistsTeam.self)
    static let memberships = hasMany(ExistsMembership.self)
    static let notes = hasMany(ExistsNote.self)
    static let redTeam = belongsTo(Table<Row>("redTeam"), using: ForeignKey(["teamId"], to: ["id"]))
}

/// `TableAlias.exists`, which tests whether a joined row was found, and the
/// dynamic members of record aliases: expressions, selections, orderings.
@Suite struct TableAliasExistsTests {
    private func withExtraTables(_ body: (Database) throws -> Void) throws {
        try withTeamsAndPlayers { db throws in
            try db.execute(sql: """
                CREATE VIEW redTeam AS SELECT id, name FROM team WHERE id = 1;
                CREATE TABLE membership (
                  playerId INTEGER NOT NULL REFERENCES player(id), club TEXT NOT NULL,
                  PRIMARY KEY (playerId, club)) WITHOUT ROWID;
                INSERT INTO membership VALUES (1, 'chess'), (3, 'golf');
                CREATE TABLE note (playerId INTEGER REFERENCES player(id), text TEXT);
                INSERT INTO note VALUES (2, 'fast');
                """)
            try body(db)
        }
    }

    @Test func existsTestsTheRowIDOfTheJoinedTable() throws {
        try withExtraTables { db throws in
            let team = TableAlias<ExistsTeam>()
            let base = ExistsPlayer.joining(optional: ExistsPlayer.team.aliased(team)).select(Column("name"), as: String.self)
            let missing = base.filter(!team.exists)
            #expect(try generated(db, missing).0 == """
                SELECT "player"."name" FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" \
                WHERE "team"."id" IS NULL
                """)
            #expect(try missing.fetchAll(db) == ["Diane"])

            let found = base.filter(team.exists).order(Column("name"))
            #expect(try generated(db, found).0 == """
                SELECT "player"."name" FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" \
                WHERE "team"."id" IS NOT NULL ORDER BY "player"."name"
                """)
            #expect(try found.fetchAll(db) == ["Arthur", "Barbara", "Craig"])
        }
    }

    @Test func existsIsAnOperandAndASelection() throws {
        try withExtraTables { db throws in
            let t = TableAlias<ExistsTeam>(name: "t")
            let request = ExistsPlayer
                .joining(optional: ExistsPlayer.team.aliased(t))
                .filter(!t.exists || t.name == "Reds")
                .select(Column("name"), t.exists.forKey("hasTeam"))
                .order(Column("name"))
                .asRequest(of: Row.self)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == """
                SELECT "player"."name", "t"."id" IS NOT NULL AS "hasTeam" FROM "player" \
                LEFT JOIN "team" "t" ON "t"."id" = "player"."teamId" \
                WHERE ("t"."id" IS NULL) OR ("t"."name" = ?) ORDER BY "player"."name"
                """)
            #expect(arguments == ["Reds"])
            #expect(try request.fetchAll(db) == [
                ["name": "Arthur", "hasTeam": 1], ["name": "Barbara", "hasTeam": 1], ["name": "Diane", "hasTeam": 0]])
        }
    }

    @Test func existsComparedWithBooleans() throws {
        try withExtraTables { db throws in
            let team = TableAlias<ExistsTeam>()
            let base = ExistsPlayer.joining(optional: ExistsPlayer.team.aliased(team)).select(Column("name"), as: String.self)
            let request = base.filter(team.exists == false)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == """
                SELECT "player"."name" FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" \
                WHERE ("team"."id" IS NOT NULL) = ?
                """)
            #expect(arguments == [false])
            #expect(try request.fetchAll(db) == ["Diane"])
        }
    }

    @Test func existsTestsEveryPrimaryKeyColumnOfAWithoutRowIDTable() throws {
        try withExtraTables { db throws in
            let membership = TableAlias<ExistsMembership>()
            let base = ExistsPlayer
                .joining(optional: ExistsPlayer.memberships.aliased(membership))
                .select(Column("name"), as: String.self)
                .order(Column("name"))
            let members = base.filter(membership.exists)
            #expect(try generated(db, members).0 == """
                SELECT "player"."name" FROM "player" LEFT JOIN "membership" ON "membership"."playerId" = "player"."id" \
                WHERE ("membership"."playerId" IS NOT NULL) OR ("membership"."club" IS NOT NULL) ORDER BY "player"."name"
                """)
            #expect(try members.fetchAll(db) == ["Arthur", "Craig"])

            let others = base.filter(!membership.exists)
            #expect(try generated(db, others).0 == """
                SELECT "player"."name" FROM "player" LEFT JOIN "membership" ON "membership"."playerId" = "player"."id" \
                WHERE ("membership"."playerId" IS NULL) AND ("membership"."club" IS NULL) ORDER BY "player"."name"
                """)
            #expect(try others.fetchAll(db) == ["Barbara", "Diane"])
        }
    }

    @Test func existsTestsTheRowIDColumnOrEveryColumnOfAView() throws {
        try withExtraTables { db throws in
            let note = TableAlias()
            let noted = ExistsPlayer.joining(optional: ExistsPlayer.notes.aliased(note)).filter(note.exists)
                .select(Column("name"), as: String.self)
            #expect(try generated(db, noted).0 == """
                SELECT "player"."name" FROM "player" LEFT JOIN "note" ON "note"."playerId" = "player"."id" \
                WHERE "note"."rowid" IS NOT NULL
                """)
            #expect(try noted.fetchAll(db) == ["Barbara"])

            let red = TableAlias()
            let notRed = ExistsPlayer.joining(optional: ExistsPlayer.redTeam.aliased(red)).filter(!red.exists)
                .select(Column("name"), as: String.self).order(Column("name"))
            #expect(try generated(db, notRed).0 == """
                SELECT "player"."name" FROM "player" LEFT JOIN "redTeam" ON "redTeam"."id" = "player"."teamId" \
                WHERE ("redTeam"."id" IS NULL) AND ("redTeam"."name" IS NULL) ORDER BY "player"."name"
                """)
            #expect(try notRed.fetchAll(db) == ["Craig", "Diane"])
        }
    }

    @Test func existsOnTheQueriedTable() throws {
        try withExtraTables { db throws in
            let team = TableAlias<ExistsTeam>()
            let request = ExistsTeam.aliased(team).filter(team.exists).select(Column("name"), as: String.self)
            #expect(try generated(db, request).0 == #"SELECT "name" FROM "team" WHERE "id" IS NOT NULL"#)
            #expect(try request.fetchAll(db) == ["Reds", "Blues", "Greens"])
        }
    }

    @Test func recordAliasMembersAreSelectionsAndOrderings() throws {
        try withExtraTables { db throws in
            let team = TableAlias<ExistsTeam>(name: "t")
            let selection: SQLSelection = team.everything
            let ordering: SQLOrdering = team.byNameDesc
            let expression: SQLExpression = team.name
            let request = ExistsPlayer
                .joining(required: ExistsPlayer.team.aliased(team))
                .filter(expression != "Greens")
                .select(selection, Column("name"))
                .order(ordering, Column("name"))
                .asRequest(of: Row.self)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == """
                SELECT "t".*, "player"."name" FROM "player" JOIN "team" "t" ON "t"."id" = "player"."teamId" \
                WHERE "t"."name" <> ? ORDER BY "t"."name" DESC, "player"."name"
                """)
            #expect(arguments == ["Greens"])
            #expect(try request.fetchAll(db) == [
                ["id": 1, "name": "Reds", "name": "Arthur"],
                ["id": 1, "name": "Reds", "name": "Barbara"],
                ["id": 2, "name": "Blues", "name": "Craig"]])
        }
    }

    @Test func databaseComponentsTypealiases() {
        let aliasComponents: TableAlias<ExistsTeam>.DatabaseComponents = ExistsTeam.databaseComponents
        let tableComponents: Table<ExistsTeam>.DatabaseComponents = ExistsTeam.databaseComponents
        #expect(aliasComponents == tableComponents)
        #expect(aliasComponents.name.name == "name")
    }
}
