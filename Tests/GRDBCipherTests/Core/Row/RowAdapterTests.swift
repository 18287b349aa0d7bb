import Foundation
import Testing
@testable import GRDBCipher

/// Runs `body` in a write on a fresh encrypted database file.
@discardableResult
private func withEncryptedDatabase<T>(_ body: (Database) throws -> T) throws -> T {
    let dir = try TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: dir.path("adapters.sqlite"), configuration: keyed("adapter secret"))
    return try withExtendedLifetime(dir) { try dbQueue.write(body) }
}

private let abcd = "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d"

private struct Player: FetchableRecord, Equatable {
    var id: Int64
    var name: String
    var teamId: Int64?
    init(id: Int64, name: String, teamId: Int64?) {
        self.id = id
        self.name = name
        self.teamId = teamId
    }
    init(row: Row) {
        id = row["id"]
        name = row["name"]
        teamId = row["teamId"]
    }
}

private struct Team: FetchableRecord, Equatable {
    var id: Int64
    var name: String
    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
    init(row: Row) {
        id = row["id"]
        name = row["name"]
    }
}

private struct PlayerInfo: FetchableRecord {
    var player: Player
    var team: Team?
    init(row: Row) {
        player = row["player"]
        team = row["team"]
    }
}

private struct CodablePlayer: Decodable, FetchableRecord, Equatable {
    var id: Int64
    var name: String
    var teamId: Int64?
}

private struct CodableTeam: Decodable, FetchableRecord, Equatable {
    var id: Int64
    var name: String
}

/// A Decodable record made of the scopes "player" and "team".
private struct CodablePlayerInfo: Decodable, FetchableRecord {
    var player: CodablePlayer
    var team: CodableTeam?
}

/// A plain Decodable value (not a record) decoded from a scope.
private struct TeamName: Decodable, Equatable {
    var name: String
}

private struct PlayerWithTeamName: Decodable, FetchableRecord {
    var name: String
    var team: TeamName
}

private func createPlayersAndTeams(_ db: Database) throws {
    try db.execute(sql: """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, teamId INTEGER REFERENCES team(id));
        INSERT INTO team VALUES (42, 'Reds');
        INSERT INTO player VALUES (1, 'Arthur', 42);
        INSERT INTO player VALUES (2, 'Barbara', NULL);
        """)
}

private let playerTeamSQL = """
    SELECT player.*, team.* FROM player LEFT JOIN team ON team.id = player.teamId ORDER BY player.id
    """

/// The adapter of `playerTeamSQL`, from the tables' column counts.
private func playerTeamAdapter(_ db: Database) throws -> any RowAdapter {
    let adapters = splittingRowAdapters(columnCounts: [
        try db.columns(in: "player").count,
        try db.columns(in: "team").count,
    ])
    return ScopeAdapter(["player": adapters[0], "team": adapters[1]])
}

@Suite("Row adapters")
struct RowAdapterTests {
    // MARK: - The documented examples

    @Test func columnMappingFeedsConsumedFromProduced() throws {
        try withEncryptedDatabase { db in
            let adapter = ColumnMapping(["consumed": "produced"])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced", adapter: adapter))
            #expect(row.description == #"[consumed:"Hello"]"#)
            #expect(row["consumed"] as String? == "Hello")
            #expect(row["produced"] as String? == nil)
            #expect(row.unadapted.description == #"[produced:"Hello"]"#)
            #expect(row.debugDescription == "▿ [consumed:\"Hello\"]\n  unadapted: [produced:\"Hello\"]")
        }
    }

    @Test func columnMappingKeepsTheOrderOfTheFetchedRow() throws {
        try withEncryptedDatabase { db in
            let adapter = ColumnMapping(["newB": "b", "newA": "a"])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c", adapter: adapter))
            #expect(row.columnNames == ["newA", "newB"])
            #expect(row.description == "[newA:0 newB:1]")
            #expect(row == ["newA": 0, "newB": 1])
        }
    }

    @Test func columnMappingToAMissingColumnThrowsAMisuseError() throws {
        try withEncryptedDatabase { db in
            let adapter = ColumnMapping(["x": "missing"])
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b", adapter: adapter)
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "Mapping references missing column missing. Valid column names are: a, b.")
            // The same error from the other fetch methods.
            #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: "SELECT 1 AS a", adapter: adapter) }
            #expect(throws: DatabaseError.self) { try Player.fetchAll(db, sql: "SELECT 1 AS a", adapter: adapter) }
        }
    }

    @Test func emptyRowAdapterHidesEveryColumn() throws {
        try withEncryptedDatabase { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c", adapter: EmptyRowAdapter()))
            #expect(row.isEmpty)
            #expect(row.unadapted.count == 3)
        }
    }

    @Test func suffixRowAdapterHidesTheLeftmostColumns() throws {
        try withEncryptedDatabase { db in
            let row = try #require(try Row.fetchOne(db, sql: abcd, adapter: SuffixRowAdapter(fromIndex: 2)))
            #expect(row.description == "[c:2 d:3]")
            #expect(row[0] as Int == 2)
            #expect(row.index(forColumn: "d") == 1)
            #expect(!row.hasColumn("a"))
        }
    }

    @Test func rangeRowAdapterShowsARange() throws {
        try withEncryptedDatabase { db in
            let half = try #require(try Row.fetchOne(db, sql: abcd, adapter: RangeRowAdapter(1..<3)))
            #expect(half.description == "[b:1 c:2]")
            let closed = try #require(try Row.fetchOne(db, sql: abcd, adapter: RangeRowAdapter(1...2)))
            #expect(closed == half)
        }
    }

    @Test func adaptersOutOfRangeThrowInsteadOfTrapping() throws {
        try withEncryptedDatabase { db in
            #expect(throws: DatabaseError.self) { try Row.fetchOne(db, sql: abcd, adapter: RangeRowAdapter(2..<9)) }
            #expect(throws: DatabaseError.self) { try Row.fetchOne(db, sql: abcd, adapter: SuffixRowAdapter(fromIndex: 5)) }
            // The whole row is a valid suffix: an empty one.
            let empty = try #require(try Row.fetchOne(db, sql: abcd, adapter: SuffixRowAdapter(fromIndex: 4)))
            #expect(empty.isEmpty)
        }
    }

    @Test func scopeAdapterDefinesScopes() throws {
        try withEncryptedDatabase { db in
            let adapter = ScopeAdapter(["left": RangeRowAdapter(0..<2), "right": RangeRowAdapter(2..<4)])
            let row = try #require(try Row.fetchOne(db, sql: abcd, adapter: adapter))
            #expect(row.description == "[a:0 b:1 c:2 d:3]")
            #expect(row.scopes["left"]?.description == "[a:0 b:1]")
            #expect(row.scopes["right"]?.description == "[c:2 d:3]")
            #expect(row.scopes["missing"] == nil)
            #expect(Set(row.scopes.names) == ["left", "right"])
            #expect(row.scopes.count == 2)
            var seen: [String: String] = [:]
            for (name, scopedRow) in row.scopes { seen[name] = scopedRow.description }
            #expect(seen == ["left": "[a:0 b:1]", "right": "[c:2 d:3]"])
        }
    }

    @Test func nestedScopesReadTheFetchedRowColumns() throws {
        try withEncryptedDatabase { db in
            let adapter = ScopeAdapter([
                "left": ScopeAdapter(["left": RangeRowAdapter(0..<1), "right": RangeRowAdapter(1..<2)]),
                "right": ScopeAdapter(["left": RangeRowAdapter(2..<3), "right": RangeRowAdapter(3..<4)]),
            ])
            let row = try #require(try Row.fetchOne(db, sql: abcd, adapter: adapter))
            let leftRow = try #require(row.scopes["left"])
            #expect(leftRow.scopes["left"]?.description == "[a:0]")
            #expect(leftRow.scopes["right"]?.description == "[b:1]")
            let rightRow = try #require(row.scopes["right"])
            #expect(rightRow.scopes["left"]?.description == "[c:2]")
            #expect(rightRow.scopes["right"]?.description == "[d:3]")
            #expect(rightRow.unadapted.description == "[a:0 b:1 c:2 d:3]")
        }
    }

    @Test func addingScopesKeepsTheBaseAdapter() throws {
        try withEncryptedDatabase { db in
            let adapter = RangeRowAdapter(0..<2).addingScopes(["remainder": SuffixRowAdapter(fromIndex: 2)])
            let row = try #require(try Row.fetchOne(db, sql: abcd, adapter: adapter))
            #expect(row.description == "[a:0 b:1]")
            #expect(row.scopes["remainder"]?.description == "[c:2 d:3]")

            let same = ScopeAdapter(base: RangeRowAdapter(0..<2), scopes: ["remainder": SuffixRowAdapter(fromIndex: 2)])
            #expect(try Row.fetchOne(db, sql: abcd, adapter: same) == row)
        }
    }

    @Test func scopeAdapterBaseScopesAreReplacedByName() throws {
        try withEncryptedDatabase { db in
            let base = ScopeAdapter(["x": RangeRowAdapter(0..<1), "y": RangeRowAdapter(1..<2)])
            let adapter = ScopeAdapter(base: base, scopes: ["x": RangeRowAdapter(3..<4)])
            let row = try #require(try Row.fetchOne(db, sql: abcd, adapter: adapter))
            #expect(row.scopes["x"]?.description == "[d:3]")
            #expect(row.scopes["y"]?.description == "[b:1]")
        }
    }

    @Test func renameColumnAdapterRenamesEveryColumn() throws {
        try withEncryptedDatabase { db in
            let adapter = RenameColumnAdapter { $0 + "rrr" }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c", adapter: adapter))
            #expect(row.description == "[arrr:0 brrr:1 crrr:2]")
        }
    }

    @Test func renameColumnAdapterFixesSubqueryColumnNames() throws {
        try withEncryptedDatabase { db in
            let sql = "SELECT * FROM (SELECT 1 AS id, 2 AS id)"
            let raw = try #require(try Row.fetchOne(db, sql: sql))
            #expect(raw.columnNames == ["id", "id:1"])
            let adapter = RenameColumnAdapter { String($0.prefix(while: { $0 != ":" })) }
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
            #expect(row.columnNames == ["id", "id"])
            // The leftmost column wins.
            #expect(row["id"] as Int? == 1)
        }
    }

    @Test func splittingRowAdaptersSeparatesJoinedTables() throws {
        try withEncryptedDatabase { db in
            try createPlayersAndTeams(db)
            let rows = try Row.fetchAll(db, sql: playerTeamSQL, adapter: playerTeamAdapter(db))
            #expect(rows.count == 2)
            #expect(rows[0].scopes["player"]?.description == #"[id:1 name:"Arthur" teamId:42]"#)
            #expect(rows[0].scopes["team"]?.description == #"[id:42 name:"Reds"]"#)
            #expect(rows[0]["player"] as Player == Player(id: 1, name: "Arthur", teamId: 42))
            #expect(rows[0]["team"] as Team? == Team(id: 42, name: "Reds"))
            // The LEFT JOIN found no team: the team scope is all NULL.
            #expect(rows[1]["player"] as Player == Player(id: 2, name: "Barbara", teamId: nil))
            #expect(rows[1]["team"] as Team? == nil)
            #expect(rows[1].scopes["team"]?.description == "[id:NULL name:NULL]")
        }
    }

    @Test func splittingRowAdaptersWithoutCountsKeepsTheRow() throws {
        try withEncryptedDatabase { db in
            let adapters = splittingRowAdapters(columnCounts: [])
            #expect(adapters.count == 1)
            let row = try #require(try Row.fetchOne(db, sql: abcd, adapter: adapters[0]))
            #expect(row.description == "[a:0 b:1 c:2 d:3]")
            let split = splittingRowAdapters(columnCounts: [1, 2])
            #expect(split.count == 3)
            let rows = try split.map { try #require(try Row.fetchOne(db, sql: abcd, adapter: $0)).description }
            #expect(rows == ["[a:0]", "[b:1 c:2]", "[d:3]"])
        }
    }

    @Test func adaptedRequestDecodesRecordsFromScopes() throws {
        try withEncryptedDatabase { db in
            try createPlayersAndTeams(db)
            let request = SQLRequest<PlayerInfo>(sql: playerTeamSQL).adapted { db in try playerTeamAdapter(db) }
            let infos = try request.fetchAll(db)
            #expect(infos.map(\.player.name) == ["Arthur", "Barbara"])
            #expect(infos.map(\.team) == [Team(id: 42, name: "Reds"), nil])
            let first = try #require(try request.fetchOne(db))
            #expect(first.team?.name == "Reds")
            #expect(try request.fetchCount(db) == 2)
            let prepared = try request.makePreparedRequest(db, forSingleResult: false)
            #expect(prepared.adapter != nil)
        }
    }

    // MARK: - Decodable records

    @Test func decodableRecordReadsColumnsThroughTheAdapter() throws {
        try withEncryptedDatabase { db in
            let adapter = ColumnMapping(["id": "playerId", "name": "playerName"])
            let sql = "SELECT 'junk' AS id, 7 AS playerId, 'Arthur' AS playerName"
            let player = try #require(try CodablePlayer.fetchOne(db, sql: sql, adapter: adapter))
            #expect(player == CodablePlayer(id: 7, name: "Arthur", teamId: nil))
        }
    }

    @Test func decodablePropertiesNamedLikeScopesDecodeFromTheScopes() throws {
        try withEncryptedDatabase { db in
            try createPlayersAndTeams(db)
            let infos = try CodablePlayerInfo.fetchAll(db, sql: playerTeamSQL, adapter: playerTeamAdapter(db))
            #expect(infos.map(\.player) == [
                CodablePlayer(id: 1, name: "Arthur", teamId: 42),
                CodablePlayer(id: 2, name: "Barbara", teamId: nil),
            ])
            // An all-NULL scope decodes as nil into an optional property.
            #expect(infos.map(\.team) == [CodableTeam(id: 42, name: "Reds"), nil])
        }
    }

    @Test func plainDecodableValuesDecodeFromScopes() throws {
        try withEncryptedDatabase { db in
            let adapter = ScopeAdapter(base: RangeRowAdapter(0..<1), scopes: ["team": ColumnMapping(["name": "teamName"])])
            let sql = "SELECT 'Arthur' AS name, 'Reds' AS teamName"
            let record = try #require(try PlayerWithTeamName.fetchOne(db, sql: sql, adapter: adapter))
            #expect(record.name == "Arthur")
            #expect(record.team == TeamName(name: "Reds"))
        }
    }

    @Test func adaptedCursorResolvesCodingKeysOncePerFetch() throws {
        try withEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, x INTEGER, b TEXT)")
            for i in 0..<50 {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [i, -i, "n\(i)"])
            }
            struct Pair: Decodable, FetchableRecord { var id: Int; var name: String }
            let adapter = ColumnMapping(["id": "a", "name": "b"])
            let cursor = try Pair.fetchCursor(db, sql: "SELECT * FROM t ORDER BY a", adapter: adapter)
            var ids: [Int] = []
            while let pair = try cursor.next() {
                ids.append(pair.id)
                #expect(pair.name == "n\(pair.id)")
            }
            #expect(ids == Array(0..<50))
            let layout = try #require(cursor.row.adaptation?.layout)
            #expect(((layout.decodingCache as? CodingKeyColumnTables)?.tables ?? []).count == 1)
            // Two keys, each resolved once for the 50 rows.
            #expect(((layout.decodingCache as? CodingKeyColumnTables)?.tables ?? []).first?.resolutionCount == 2)
        }
    }

    // MARK: - Values

    @Test func valuesAreReadFromTheFirstAdaptedColumn() throws {
        try withEncryptedDatabase { db in
            let sql = "SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, NULL"
            let adapter = SuffixRowAdapter(fromIndex: 1)
            #expect(try String?.fetchAll(db, sql: sql, adapter: adapter) == ["x", nil])
            #expect(try String.fetchOne(db, sql: sql, adapter: adapter) == "x")
            #expect(try Int.fetchSet(db, sql: sql, adapter: ColumnMapping(["v": "a"])) == [1, 2])
            // DatabaseValue is not read on the fast path.
            #expect(try DatabaseValue.fetchAll(db, sql: sql, adapter: adapter) == ["x".databaseValue, .null])
            let statement = try db.makeStatement(sql: sql)
            let cursor = try String?.fetchCursor(statement, adapter: adapter)
            #expect(try cursor.next() == "x")
        }
    }

    @Test func valuesOfAnAdapterWithoutColumnsThrow() throws {
        try withEncryptedDatabase { db in
            #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: "SELECT 1", adapter: EmptyRowAdapter()) }
        }
    }

    // MARK: - Rows

    @Test func cursorRowsAreViewsAndCopiesKeepTheAdaptation() throws {
        try withEncryptedDatabase { db in
            let sql = "SELECT 1 AS a, 10 AS b UNION ALL SELECT 2, 20"
            let adapter = ScopeAdapter(base: ColumnMapping(["x": "b"]), scopes: ["first": RangeRowAdapter(0..<1)])
            let cursor = try Row.fetchCursor(db, sql: sql, adapter: adapter)
            let first = try #require(try cursor.next())
            let copy = first.copy()
            #expect(first["x"] as Int == 10)
            let second = try #require(try cursor.next())
            // The cursor row is reused: it reads the statement's new row.
            #expect(first === second)
            #expect(first["x"] as Int == 20)
            #expect(first.scopes["first"]?["a"] as Int? == 2)
            // The copy kept the first values, its adaptation and its scopes.
            #expect(copy["x"] as Int == 10)
            #expect(copy.scopes["first"]?.description == "[a:1]")
            #expect(copy.unadapted.description == "[a:1 b:10]")
            // Copying a copy adapts the same values again, as GRDB does.
            #expect(copy.copy() == copy)
            #expect(copy.copy().unadapted === copy.unadapted)
        }
    }

    @Test func equalityComparesScopes() throws {
        try withEncryptedDatabase { db in
            let plain: Row = ["a": 0, "b": 1, "c": 2, "d": 3]
            let identity = try #require(try Row.fetchOne(db, sql: abcd, adapter: SuffixRowAdapter(fromIndex: 0)))
            #expect(identity == plain)
            #expect(identity.hashValue == plain.hashValue)
            let scoped = try #require(try Row.fetchOne(db, sql: abcd, adapter: ScopeAdapter(["s": RangeRowAdapter(0..<1)])))
            #expect(scoped != plain)
            #expect(scoped.unscoped == plain)
            #expect(scoped.unscoped.scopes.isEmpty)
            let sameScope = try #require(try Row.fetchOne(db, sql: abcd, adapter: ScopeAdapter(["s": ColumnMapping(["a": "a"])])))
            #expect(scoped == sameScope)
            let otherScope = try #require(try Row.fetchOne(db, sql: abcd, adapter: ScopeAdapter(["s": RangeRowAdapter(1..<2)])))
            #expect(scoped != otherScope)
        }
    }

    @Test func debugDescriptionShowsTheUnadaptedRowAndScopes() throws {
        try withEncryptedDatabase { db in
            let plain = try #require(try Row.fetchOne(db, sql: abcd, adapter: SuffixRowAdapter(fromIndex: 0)))
            #expect(plain.debugDescription == "[a:0 b:1 c:2 d:3]")
            let adapter = RangeRowAdapter(0..<1).addingScopes([
                "right": ScopeAdapter(base: RangeRowAdapter(2..<4), scopes: ["last": RangeRowAdapter(3..<4)]),
                "left": RangeRowAdapter(1..<2),
            ])
            let row = try #require(try Row.fetchOne(db, sql: abcd, adapter: adapter))
            #expect(row.debugDescription == """
                ▿ [a:0]
                  unadapted: [a:0 b:1 c:2 d:3]
                  - left: [b:1]
                  - right: [c:2 d:3]
                    - last: [d:3]
                """)
        }
    }

    @Test func scopesTreeFindsScopesAtAnyDepth() throws {
        try withEncryptedDatabase { db in
            let adapter = ScopeAdapter([
                "author": ScopeAdapter(base: RangeRowAdapter(1..<3), scopes: ["country": RangeRowAdapter(3..<4)]),
            ])
            let row = try #require(try Row.fetchOne(db, sql: abcd, adapter: adapter))
            #expect(row.scopes["country"] == nil)
            #expect(row.scopesTree["country"]?.description == "[d:3]")
            #expect(row.scopesTree["author"]?.description == "[b:1 c:2]")
            #expect(row.scopesTree["missing"] == nil)
            #expect(row.scopesTree.names == ["author", "country"])
        }
    }

    @Test func decodingAMissingOrNullScopeThrows() throws {
        try withEncryptedDatabase { db in
            let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 1)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS id, NULL AS id, NULL AS name", adapter: adapter))
            let missing = #expect(throws: RowDecodingError.self) { try row.decode(Team.self, forKey: "coach") }
            #expect(missing?.kind == .scopeNotFound)
            #expect(missing?.description.hasPrefix(#"scope not found: "coach" - available scopes: ["team"]"#) == true)
            let null = #expect(throws: RowDecodingError.self) { try row.decode(Team.self, forKey: "team") }
            #expect(null?.kind == .valueMismatch)
            #expect(try row.decodeIfPresent(Team.self, forKey: "team") == nil)
            #expect(try row.decodeIfPresent(Team.self, forKey: "coach") == nil)
        }
    }

    @Test func adaptedRowsOfAStatementAndOfAQueryInterfaceRequest() throws {
        try withEncryptedDatabase { db in
            try createPlayersAndTeams(db)
            let statement = try db.makeStatement(sql: "SELECT id, name FROM player WHERE id = ?")
            let adapter = ColumnMapping(["playerName": "name"])
            let rows = try Row.fetchAll(statement, arguments: [1], adapter: adapter)
            #expect(rows.map(\.description) == [#"[playerName:"Arthur"]"#])
            #expect(try Row.fetchSet(statement, arguments: [2], adapter: adapter).map(\.description) == [#"[playerName:"Barbara"]"#])

            let request = SQLRequest<Row>(sql: "SELECT * FROM player ORDER BY id", adapter: SuffixRowAdapter(fromIndex: 1))
            #expect(try request.fetchAll(db).map(\.description) == [#"[name:"Arthur" teamId:42]"#, #"[name:"Barbara" teamId:NULL]"#])
            // A second adapter applies to the columns of the first one.
            let chained = request.adapted { _ in SuffixRowAdapter(fromIndex: 1) }
            #expect(try chained.fetchAll(db).map(\.description) == ["[teamId:42]", "[teamId:NULL]"])

            // A query interface request, adapted.
            let players = PlayerRecord.order(Column("id")).adapted { _ in ColumnMapping(["playerName": "name"]) }
            #expect(try Row.fetchAll(db, players).map(\.description) == [#"[playerName:"Arthur"]"#, #"[playerName:"Barbara"]"#])
            let names = PlayerRecord.select(Column("name")).order(Column("id")).adapted { _ in SuffixRowAdapter(fromIndex: 0) }
            #expect(try String.fetchAll(db, names) == ["Arthur", "Barbara"])
        }
    }

    @Test func customAdaptersComposeBuiltInOnes() throws {
        try withEncryptedDatabase { db in
            let sql = "SELECT 1 AS id, 'Arthur' AS name, 'Reds' AS name"
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: TeamScopeAdapter()))
            #expect(row.description == #"[id:1 name:"Arthur"]"#)
            #expect(row.scopes["team"]?.description == #"[name:"Reds"]"#)
            let player = try #require(try NestedTeamPlayer.fetchOne(db, sql: sql, adapter: TeamScopeAdapter()))
            #expect(player.name == "Arthur")
            #expect(player.teamName == "Reds")
        }
    }

    @Test func unadaptedRowsHaveNoScopes() throws {
        try withEncryptedDatabase { db in
            let row = try #require(try Row.fetchOne(db, sql: abcd))
            #expect(row.unadapted === row)
            #expect(row.unscoped === row)
            #expect(row.scopes.isEmpty)
            #expect(row.scopes["a"] == nil)
            #expect(row.scopesTree.names.isEmpty)
            #expect(row.debugDescription == row.description)
        }
    }
}

/// A custom adapter, made of built-in ones as GRDB users write them.
private struct TeamScopeAdapter: RowAdapter {
    func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        try ScopeAdapter(base: RangeRowAdapter(0..<2), scopes: ["team": SuffixRowAdapter(fromIndex: 2)])
            ._layoutedAdapter(from: layout)
    }
}

/// A Decodable record that reads a scope through a nested keyed container.
private struct NestedTeamPlayer: Decodable, FetchableRecord {
    var name: String
    var teamName: String
    enum CodingKeys: String, CodingKey { case name, team }
    enum TeamKeys: String, CodingKey { case name }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let team = try container.nestedContainer(keyedBy: TeamKeys.self, forKey: .team)
        teamName = try team.decode(String.self, forKey: .name)
    }
}

private struct PlayerRecord: TableRecord, FetchableRecord {
    static let databaseTableName = "player"
    var name: String
    init(row: Row) { name = row["name"] }
}
