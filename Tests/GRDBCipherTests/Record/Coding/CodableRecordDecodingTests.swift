import Foundation
import Testing
@testable import GRDBCipher

private enum AchievementColor: String, Codable {
    case bronze, silver, gold
}

private struct Achievement: Codable, Equatable {
    var name: String
    var color: AchievementColor
}

/// The README's JSON column example.
private struct JSONPlayer: Codable, FetchableRecord, Equatable {
    var name: String
    var score: Int
    var achievements: [Achievement]
}

private struct OptionalPlayer: Decodable, FetchableRecord {
    var name: String
    var nickname: String?
    var bonus: Int?
    var birth: Date?
    var tags: [String]?
}

private struct Renamed: Decodable, FetchableRecord {
    var identifier: Int64
    var fullName: String
    enum CodingKeys: String, CodingKey {
        case identifier = "id"
        case fullName = "name"
    }
}

private struct SnakePlayer: Decodable, FetchableRecord {
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    var playerId: Int
    var teamName: String
}

private struct CustomColumns: Decodable, FetchableRecord {
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
        AnyKey(stringValue: String(column.dropFirst(4)))
    }
    var name: String
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct Values: Decodable, FetchableRecord {
    var uuid: UUID
    var url: URL
    var decimal: Decimal
    var data: Data
    var color: AchievementColor
}

private let decoderName = CodingUserInfoKey(rawValue: "decoderName")!

private struct UserInfoRecord: Decodable, FetchableRecord {
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [decoderName: "Database"] }
    var seen: String
    var meta: Meta

    struct Meta: Decodable {
        var seen: String
        init(from decoder: any Decoder) throws {
            seen = decoder.userInfo[decoderName] as? String ?? "none"
        }
    }

    init(from decoder: any Decoder) throws {
        seen = decoder.userInfo[decoderName] as? String ?? "none"
        meta = try decoder.container(keyedBy: CodingKeys.self).decode(Meta.self, forKey: .meta)
    }

    enum CodingKeys: String, CodingKey { case meta }
}

/// A record whose date strategy comes from the column name.
private struct Dates: Decodable, FetchableRecord {
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        switch column {
        case "reference": return .timeIntervalSinceReferenceDate
        case "unix": return .timeIntervalSince1970
        case "millis": return .millisecondsSince1970
        case "iso": return .iso8601
        case "formatted": return .formatted(Dates.formatter)
        case "custom": return .custom { dbValue in Int64.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: Double($0) * 86400) } }
        default: return .deferredToDate
        }
    }

    static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "dd/MM/yyyy HH:mm"
        return formatter
    }()

    var deferred: Date
    var reference: Date
    var unix: Date
    var millis: Date
    var iso: Date
    var formatted: Date
    var custom: Date
}

private struct Base64Data: Decodable, FetchableRecord {
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        .custom { dbValue in String.fromDatabaseValue(dbValue).flatMap { Data(base64Encoded: $0) } }
    }
    var payload: Data
}

/// A record made of a record and a value, decoded from the same row.
private struct PlayerInfo: Decodable, FetchableRecord {
    var player: Player
    var rank: Int

    struct Player: Decodable, FetchableRecord {
        var name: String
        var score: Int
    }
}

private struct Dated: Decodable, FetchableRecord {
    var date: Date
}

private struct Small: Decodable, FetchableRecord {
    var value: Int8
}

private struct Plain: Decodable, FetchableRecord, Equatable {
    var a: Int64
    var b: String
}

@Suite("Codable records: decoding")
struct CodableRecordDecodingTests {
    @Test func jsonColumnDecodes() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER, achievements TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 100, ?)",
                           arguments: [#"[{"color":"gold","name":"Use Codable Records"}]"#])
            let player = try #require(try JSONPlayer.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(player == JSONPlayer(name: "Arthur", score: 100, achievements: [Achievement(name: "Use Codable Records", color: .gold)]))
            // The JSON of a blob decodes too.
            let blob = try #require(try JSONPlayer.fetchOne(db, sql: "SELECT name, score, CAST(achievements AS BLOB) AS achievements FROM player"))
            #expect(blob == player)
            // A copied row decodes as a statement row does.
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(try JSONPlayer(row: row) == player)
        }
    }

    @Test func nullJSONColumnIsAnErrorForANonOptionalProperty() throws {
        try inEncryptedDatabase { db in
            let error = #expect(throws: DecodingError.self) {
                try JSONPlayer.fetchOne(db, sql: "SELECT 'Arthur' AS name, 1 AS score, NULL AS achievements")
            }
            guard case .valueNotFound(_, let context) = error else { Issue.record("\(String(describing: error))"); return }
            #expect(context.codingPath.map(\.stringValue) == ["achievements"])
        }
    }

    @Test func optionalsDecodeNilFromNullAndFromMissingColumns() throws {
        try inEncryptedDatabase { db in
            let null = try #require(try OptionalPlayer.fetchOne(
                db, sql: "SELECT 'Arthur' AS name, NULL AS nickname, NULL AS bonus, NULL AS birth, NULL AS tags"))
            #expect(null.nickname == nil && null.bonus == nil && null.birth == nil && null.tags == nil)
            let missing = try #require(try OptionalPlayer.fetchOne(db, sql: "SELECT 'Arthur' AS name"))
            #expect(missing.name == "Arthur" && missing.nickname == nil && missing.bonus == nil && missing.tags == nil)
            let full = try #require(try OptionalPlayer.fetchOne(
                db, sql: "SELECT 'Arthur' AS name, 'Art' AS nickname, 3 AS bonus, '2024-05-06' AS birth, '[\"a\"]' AS tags"))
            #expect(full.nickname == "Art" && full.bonus == 3 && full.tags == ["a"])
            #expect(full.birth == Date(timeIntervalSince1970: 1_714_953_600))
        }
    }

    @Test func aMissingColumnForANonOptionalPropertyNamesTheColumn() throws {
        try inEncryptedDatabase { db in
            let error = #expect(throws: RowDecodingError.self) {
                try Plain.fetchAll(db, sql: "SELECT 1 AS a")
            }
            #expect(error?.kind == .columnNotFound)
            #expect(error?.column == "b")
            #expect(error?.description.hasPrefix("column not found: \"b\" - row: ") == true)
        }
    }

    @Test func typeMismatchNamesColumnAndTypeButNotTheValue() throws {
        func makeTable(_ db: Database) throws {
            try db.execute(sql: "CREATE TABLE t (date TEXT, value INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: ["top-secret-value", 987_654])
        }
        try inEncryptedDatabase { db in
            try makeTable(db)
            let error = #expect(throws: RowDecodingError.self) {
                try Dated.fetchAll(db, sql: "SELECT date FROM t")
            }
            let description = error?.description ?? ""
            #expect(error?.kind == .valueMismatch)
            #expect(error?.column == "date")
            #expect(description.contains("could not decode Date"), "\(description)")
            #expect(description.contains("column: \"date\", column index: 0"), "\(description)")
            #expect(description.contains("<text>"), "\(description)")
            #expect(!description.contains("top-secret-value"), "\(description)")
            // An integer that does not fit the property's type.
            let overflow = #expect(throws: RowDecodingError.self) {
                try Small.fetchAll(db, sql: "SELECT value FROM t")
            }
            let overflowDescription = overflow?.description ?? ""
            #expect(overflowDescription.contains("could not decode Int8"), "\(overflowDescription)")
            #expect(overflowDescription.contains("column: \"value\", column index: 0"), "\(overflowDescription)")
            #expect(!overflowDescription.contains("987654"), "\(overflowDescription)")
        }
        // Values show only when statement arguments are public.
        try inEncryptedDatabase(publicStatementArguments: true) { db in
            try makeTable(db)
            let error = #expect(throws: RowDecodingError.self) {
                try Dated.fetchAll(db, sql: "SELECT date FROM t")
            }
            #expect(error?.description.contains("top-secret-value") == true)
        }
    }

    @Test func nullIntoANonOptionalPropertyIsAMismatch() throws {
        try inEncryptedDatabase { db in
            let error = #expect(throws: RowDecodingError.self) {
                try Plain.fetchOne(db, sql: "SELECT NULL AS a, 'x' AS b")
            }
            #expect(error?.kind == .valueMismatch)
            #expect(error?.description.contains("NULL") == true)
        }
    }

    @Test func corruptJSONDoesNotShowTheValue() throws {
        try inEncryptedDatabase { db in
            let error = #expect(throws: DecodingError.self) {
                try JSONPlayer.fetchOne(db, sql: "SELECT 'Arthur' AS name, 1 AS score, 'secret{not json' AS achievements")
            }
            let text = "\(String(describing: error))"
            #expect(!text.contains("secret"), "\(text)")
            guard case .dataCorrupted(let context) = error else { Issue.record("\(text)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["achievements"])
        }
    }

    @Test func unknownEnumRawValueDoesNotShowTheValue() throws {
        try inEncryptedDatabase { db in
            let sql = """
                SELECT X'E621E1F8C36C495A93FC0C247A3E6E5F' AS uuid, 'https://example.com' AS url,
                       '1.5' AS decimal, X'00' AS data, 'secret-platinum' AS color
                """
            let error = #expect(throws: DecodingError.self) { try Values.fetchOne(db, sql: sql) }
            #expect(!"\(String(describing: error))".contains("secret-platinum"))
        }
    }

    @Test func codingKeysRenameColumns() throws {
        try inEncryptedDatabase { db in
            let record = try #require(try Renamed.fetchOne(db, sql: "SELECT 7 AS id, 'Arthur' AS NAME"))
            #expect(record.identifier == 7 && record.fullName == "Arthur")
        }
    }

    @Test func snakeCaseStrategyMapsColumnsToKeys() throws {
        try inEncryptedDatabase { db in
            let record = try #require(try SnakePlayer.fetchOne(db, sql: "SELECT 1 AS player_id, 'Reds' AS team_name"))
            #expect(record.playerId == 1 && record.teamName == "Reds")
            // No column converts to playerId.
            #expect(throws: RowDecodingError.self) {
                try SnakePlayer.fetchOne(db, sql: "SELECT 1 AS player, 'Reds' AS team_name")
            }
            let custom = try #require(try CustomColumns.fetchOne(db, sql: "SELECT 'Arthur' AS col_name"))
            #expect(custom.name == "Arthur")
        }
    }

    @Test func uuidDecodesFromTextAndFromABlob() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        try inEncryptedDatabase { db in
            for uuidSQL in ["X'E621E1F8C36C495A93FC0C247A3E6E5F'", "'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'", "'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'"] {
                let values = try #require(try Values.fetchOne(db, sql: """
                    SELECT \(uuidSQL) AS uuid, 'https://example.com/a' AS url, '10.25' AS decimal,
                           X'0102' AS data, 'silver' AS color
                    """))
                #expect(values.uuid == uuid)
                #expect(values.url == URL(string: "https://example.com/a"))
                #expect(values.decimal == Decimal(string: "10.25"))
                #expect(values.data == Data([1, 2]))
                #expect(values.color == .silver)
            }
            #expect(throws: RowDecodingError.self) {
                try Values.fetchOne(db, sql: "SELECT X'0102' AS uuid, 'u' AS url, 1 AS decimal, X'' AS data, 'gold' AS color")
            }
        }
    }

    @Test func datesDecodeInEachStrategy() throws {
        try inEncryptedDatabase { db in
            let record = try #require(try Dates.fetchOne(db, sql: """
                SELECT '2024-05-06 07:08:09.500' AS deferred,
                       736672089.5 AS reference,
                       1714979289.5 AS unix,
                       1714979289500 AS millis,
                       '2024-05-06T07:08:09Z' AS iso,
                       '06/05/2024 07:08' AS formatted,
                       2 AS custom
                """))
            let expected = Date(timeIntervalSince1970: 1_714_979_289.5)
            #expect(record.deferred == expected)
            #expect(record.reference == expected)
            #expect(record.unix == expected)
            #expect(record.millis == expected)
            #expect(record.iso == Date(timeIntervalSince1970: 1_714_979_289))
            #expect(record.formatted == Date(timeIntervalSince1970: 1_714_979_280))
            #expect(record.custom == Date(timeIntervalSince1970: 2 * 86400))
        }
    }

    @Test func dataCustomStrategyDecodesBase64() throws {
        try inEncryptedDatabase { db in
            let record = try #require(try Base64Data.fetchOne(db, sql: "SELECT 'AQID' AS payload"))
            #expect(record.payload == Data([1, 2, 3]))
            #expect(throws: RowDecodingError.self) { try Base64Data.fetchOne(db, sql: "SELECT '!!' AS payload") }
        }
    }

    @Test func userInfoReachesTheDecoders() throws {
        try inEncryptedDatabase { db in
            let record = try #require(try UserInfoRecord.fetchOne(db, sql: "SELECT 1 AS meta"))
            #expect(record.seen == "Database")
            #expect(record.meta.seen == "Database")
        }
    }

    @Test func aRecordOfRecordsDecodesFromTheWholeRow() throws {
        try inEncryptedDatabase { db in
            let info = try #require(try PlayerInfo.fetchOne(db, sql: "SELECT 'Arthur' AS name, 100 AS score, 1 AS rank"))
            #expect(info.player.name == "Arthur" && info.player.score == 100 && info.rank == 1)
        }
    }

    @Test func columnIndexesAreResolvedOncePerStatement() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE t (b TEXT, a INTEGER)")
            for i in 0..<100 {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: ["row\(i)", i])
            }
            let statement = try db.cachedStatement(sql: "SELECT * FROM t ORDER BY a")
            let records = try Plain.fetchAll(statement)
            #expect(records.count == 100)
            #expect(records[42] == Plain(a: 42, b: "row42"))
            #expect(((statement.decodingCache as? CodingKeyColumnTables)?.tables ?? []).count == 1)
            let table = try #require(((statement.decodingCache as? CodingKeyColumnTables)?.tables ?? []).first)
            // Two keys, two resolutions, for a hundred rows.
            #expect(table.resolutionCount == 2)
            // A second fetch from the same statement resolves nothing.
            _ = try Plain.fetchOne(statement)
            #expect(table.resolutionCount == 2)
            // A copied row has no statement: its own table resolves its keys.
            let row = try #require(try Row.fetchOne(statement))
            #expect(try Plain(row: row) == Plain(a: 0, b: "row0"))
            #expect(table.resolutionCount == 2)
        }
    }

    @Test func theRecordsOfACursorShareOneKeyedContainer() throws {
        final class Counting: Decodable, FetchableRecord {
            nonisolated(unsafe) static var containers: [ObjectIdentifier] = []
            let a: Int64
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                // The identity of the container's box: KeyedDecodingContainer
                // holds one reference.
                Counting.containers.append(ObjectIdentifier(unsafeBitCast(container, to: AnyObject.self)))
                a = try container.decode(Int64.self, forKey: AnyKey(stringValue: "a"))
            }
        }
        try inEncryptedDatabase { db in
            let sql = "SELECT 1 AS a UNION ALL SELECT 2 UNION ALL SELECT 3"
            Counting.containers = []
            #expect(try Counting.fetchAll(db, sql: sql).map(\.a) == [1, 2, 3])
            #expect(Set(Counting.containers).count == 1)
            #expect(Counting.containers.count == 3)

            // A row that is not a cursor's gets a container per record.
            Counting.containers = []
            let rows = try Row.fetchAll(db, sql: sql)
            let records = try rows.map(Counting.init(row:))
            #expect(records.map(\.a) == [1, 2, 3])
            #expect(Counting.containers.count == 3)
        }
    }

    @Test func aRecordCursorReleasesItsRowAndStatement() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE t (b TEXT, a INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES ('x', 1), ('y', 2)")
            weak var weakRow: Row?
            weak var weakStatement: Statement?
            try {
                let statement = try db.makeStatement(sql: "SELECT * FROM t")
                let cursor = try Plain.fetchCursor(statement)
                weakRow = cursor.row
                weakStatement = statement
                #expect(try cursor.next() == Plain(a: 1, b: "x"))
                #expect(try cursor.next() == Plain(a: 2, b: "y"))
                #expect(try cursor.next() == nil)
            }()
            // The cached container refers to the row, which refers to the
            // statement: the cursor breaks the cycle when it goes away.
            #expect(weakRow == nil)
            #expect(weakStatement == nil)
        }
    }

    @Test func keysReadOutOfOrderStillFindTheirColumns() throws {
        struct Shuffled: Decodable, FetchableRecord {
            var values: [Int64]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                // Every other row reads its keys in the other order.
                let first = try container.decode(Int64.self, forKey: AnyKey(stringValue: "n"))
                let keys = first % 2 == 0 ? ["n", "x", "y"] : ["n", "y", "x"]
                values = try keys.map { try container.decode(Int64.self, forKey: AnyKey(stringValue: $0)) }
                #expect(container.contains(AnyKey(stringValue: "x")))
                #expect(!container.contains(AnyKey(stringValue: "missing")))
            }
        }
        try inEncryptedDatabase { db in
            let sql = "SELECT 0 AS n, 10 AS x, 20 AS y UNION ALL SELECT 1, 11, 21 UNION ALL SELECT 2, 12, 22"
            let records = try Shuffled.fetchAll(db, sql: sql)
            #expect(records.map(\.values) == [[0, 10, 20], [1, 21, 11], [2, 12, 22]])
        }
    }
}
