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
private struct Player: Codable, EncodableRecord, FetchableRecord, Equatable {
    var name: String
    var score: Int
    var achievements: [Achievement]
}

private struct Optionals: Codable, EncodableRecord {
    var id: Int64?
    var name: String?
    var date: Date?
    var tags: [String]?
}

private struct SnakePlayer: Codable, EncodableRecord, FetchableRecord, Equatable {
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    var playerId: Int
    var teamName: String
}

private struct Dates: Encodable, EncodableRecord {
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        switch column {
        case "reference": return .timeIntervalSinceReferenceDate
        case "unix": return .timeIntervalSince1970
        case "seconds": return .secondsSince1970
        case "millis": return .millisecondsSince1970
        case "iso": return .iso8601
        case "formatted": return .formatted(Dates.formatter)
        case "custom": return .custom { date in Int64(date.timeIntervalSince1970 / 86400) }
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
    var seconds: Date
    var millis: Date
    var iso: Date
    var formatted: Date
    var custom: Date
}

private struct UUIDs: Codable, EncodableRecord, FetchableRecord {
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        switch column {
        case "upper": return .uppercaseString
        case "lower": return .lowercaseString
        default: return .deferredToUUID
        }
    }
    var blob: UUID
    var upper: UUID
    var lower: UUID
}

private struct DataRecord: Encodable, EncodableRecord {
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        switch column {
        case "text": return .text
        case "base64": return .custom { $0.base64EncodedString() }
        default: return .deferredToData
        }
    }
    var blob: Data
    var text: Data
    var base64: Data
}

private let encoderName = CodingUserInfoKey(rawValue: "encoderName")!

private struct UserInfoRecord: Encodable, EncodableRecord {
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [encoderName: "Database"] }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(encoder.userInfo[encoderName] as? String ?? "none", forKey: AnyKey(stringValue: "name"))
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct Values: Codable, EncodableRecord, FetchableRecord, Equatable {
    var url: URL
    var decimal: Decimal
    var color: AchievementColor
    var nested: Nested
    var empty: [Int]
    var dictionary: [String: Int]

    struct Nested: Codable, Equatable {
        var z: Int
        var a: String
    }
}

@Suite("Codable records: encoding")
struct CodableRecordEncodingTests {
    @Test func jsonColumnEncodesWithSortedKeys() throws {
        let player = Player(name: "Arthur", score: 100, achievements: [Achievement(name: "Use Codable Records", color: .gold)])
        let container = try PersistenceContainer(player)
        #expect(container.columns == ["name", "score", "achievements"])
        // The README's INSERT.
        #expect(container.databaseValue(at: "achievements") == #"[{"color":"gold","name":"Use Codable Records"}]"#.databaseValue)
    }

    @Test func insertsOfOneTypeReuseTheEncoderOfTheirPlanAndFreeIt() throws {
        struct Item: Encodable, PersistableRecord {
            var name: String
            var score: Int
        }
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT, score INTEGER)")
            // The first insert builds the plan, the second one its encoder.
            weak var encoder: RecordEncoderBase?
            try {
                try Item(name: "a", score: 1).insert(db)
                let plan = try #require(db.schemaCache.recordPlans.persistencePlans.first)
                #expect(plan.layout.recordEncoder == nil)
                try Item(name: "n2", score: 2).insert(db)
                encoder = plan.layout.recordEncoder
                #expect(encoder != nil)
                for i in 3...5 { try Item(name: "n\(i)", score: i).insert(db) }
                #expect(plan.layout.recordEncoder === encoder)
                #expect(encoder?.keyedContainers.count == 1)
            }()
            #expect(try Int.fetchOne(db, sql: "SELECT SUM(score) FROM item") == 15)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY score") == ["a", "n2", "n3", "n4", "n5"])
            #expect(encoder != nil)

            // Dropping the plan frees the encoder and its containers, which
            // refer to each other.
            db.clearSchemaCache()
            #expect(encoder == nil)
        }
    }

    @Test func recordsRoundTripThroughAnEncryptedDatabase() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER, achievements TEXT)")
            let player = Player(name: "Arthur", score: 100, achievements: [Achievement(name: "A", color: .silver)])
            let container = try PersistenceContainer(player)
            try db.execute(sql: "INSERT INTO player VALUES (?, ?, ?)", arguments: StatementArguments(container.values))
            #expect(try Player.fetchOne(db, sql: "SELECT * FROM player") == player)
        }
    }

    @Test func nilStoresNull() throws {
        let container = try PersistenceContainer(Optionals(id: nil, name: nil, date: nil, tags: nil))
        #expect(container.columns == ["id", "name", "date", "tags"])
        #expect(container.values == [.null, .null, .null, .null])
        let full = try PersistenceContainer(Optionals(id: 1, name: "a", date: Date(timeIntervalSince1970: 0), tags: ["x"]))
        #expect(full.values == [1.databaseValue, "a".databaseValue, "1970-01-01 00:00:00.000".databaseValue, #"["x"]"#.databaseValue])
    }

    @Test func snakeCaseStrategies() throws {
        let record = SnakePlayer(playerId: 1, teamName: "Reds")
        let container = try PersistenceContainer(record)
        #expect(container.columns == ["player_id", "team_name"])
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE t (player_id INTEGER, team_name TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: StatementArguments(container.values))
            #expect(try SnakePlayer.fetchOne(db, sql: "SELECT * FROM t") == record)
        }
    }

    @Test func snakeCaseConversionsMatchFoundation() {
        for key in ["playerID", "myURLProperty", "oneTwoThree", "URLValue", "a", "", "already_snake", "x1Y2", "_leading"] {
            struct Probe: Encodable {
                var key: String
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyKey.self)
                    try container.encode(1, forKey: AnyKey(stringValue: key))
                }
            }
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let json = try? encoder.encode(Probe(key: key))
            let foundation = json.flatMap { try? JSONDecoder().decode([String: Int].self, from: $0) }?.keys.first
            #expect(SnakeCase.snakeCased(key) == foundation, "\(key)")
        }
        for column in ["player_id", "__a_b__", "a", "_", "my_url_property", "ALL_CAPS", "a__b"] {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            struct Probe: Decodable {
                var key: String
                init(from decoder: any Decoder) throws {
                    key = try decoder.container(keyedBy: AnyKey.self).allKeys.first?.stringValue ?? ""
                }
            }
            let probe = try? decoder.decode(Probe.self, from: Data("{\"\(column)\":1}".utf8))
            #expect(SnakeCase.camelCased(column) == probe?.key, "\(column)")
        }
    }

    @Test func datesEncodeInEachStrategy() throws {
        let date = Date(timeIntervalSince1970: 1_714_979_289.5)
        let container = try PersistenceContainer(Dates(
            deferred: date, reference: date, unix: date, seconds: date, millis: date, iso: date, formatted: date, custom: date))
        #expect(container.databaseValue(at: "deferred") == "2024-05-06 07:08:09.500".databaseValue)
        #expect(container.databaseValue(at: "reference") == 736_672_089.5.databaseValue)
        #expect(container.databaseValue(at: "unix") == 1_714_979_289.5.databaseValue)
        #expect(container.databaseValue(at: "seconds") == 1_714_979_289.databaseValue)
        #expect(container.databaseValue(at: "millis") == 1_714_979_289_500.databaseValue)
        #expect(container.databaseValue(at: "iso") == "2024-05-06T07:08:09Z".databaseValue)
        #expect(container.databaseValue(at: "formatted") == "06/05/2024 07:08".databaseValue)
        #expect(container.databaseValue(at: "custom") == 19849.databaseValue)
    }

    @Test func uuidsEncodeInEachStrategyAndDecodeBack() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let record = UUIDs(blob: uuid, upper: uuid, lower: uuid)
        let container = try PersistenceContainer(record)
        #expect(container.databaseValue(at: "blob") == uuid.databaseValue)
        #expect(container.databaseValue(at: "upper") == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F".databaseValue)
        #expect(container.databaseValue(at: "lower") == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f".databaseValue)
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE t (blob BLOB, upper TEXT, lower TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: StatementArguments(container.values))
            #expect(try String.fetchOne(db, sql: "SELECT typeof(blob) || length(blob) FROM t") == "blob16")
            let decoded = try #require(try UUIDs.fetchOne(db, sql: "SELECT * FROM t"))
            #expect(decoded.blob == uuid && decoded.upper == uuid && decoded.lower == uuid)
        }
    }

    @Test func dataEncodesInEachStrategy() throws {
        let container = try PersistenceContainer(DataRecord(blob: Data([1, 2]), text: Data("hé".utf8), base64: Data([1, 2, 3])))
        #expect(container.databaseValue(at: "blob") == Data([1, 2]).databaseValue)
        #expect(container.databaseValue(at: "text") == "hé".databaseValue)
        #expect(container.databaseValue(at: "base64") == "AQID".databaseValue)
        #expect(throws: EncodingError.self) {
            try PersistenceContainer(DataRecord(blob: Data(), text: Data([0xFF]), base64: Data()))
        }
    }

    @Test func userInfoReachesTheEncoder() throws {
        #expect(try PersistenceContainer(UserInfoRecord()).databaseValue(at: "name") == "Database".databaseValue)
    }

    @Test func valuesAndNestedValuesRoundTrip() throws {
        let values = Values(
            url: try #require(URL(string: "https://example.com/a?b=c")), decimal: try #require(Decimal(string: "12.345")),
            color: .bronze, nested: Values.Nested(z: 1, a: "x"), empty: [], dictionary: ["b": 2, "a": 1])
        let container = try PersistenceContainer(values)
        #expect(container.databaseValue(at: "url") == "https://example.com/a?b=c".databaseValue)
        #expect(container.databaseValue(at: "decimal") == "12.345".databaseValue)
        #expect(container.databaseValue(at: "color") == "bronze".databaseValue)
        #expect(container.databaseValue(at: "nested") == #"{"a":"x","z":1}"#.databaseValue)
        #expect(container.databaseValue(at: "empty") == "[]".databaseValue)
        #expect(container.databaseValue(at: "dictionary") == #"{"a":1,"b":2}"#.databaseValue)
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE t (url, decimal, color, nested, empty, dictionary)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", arguments: StatementArguments(container.values))
            #expect(try Values.fetchOne(db, sql: "SELECT * FROM t") == values)
        }
    }

    @Test func encodableDefaultsAreGRDBs() throws {
        let encoder = Player.databaseJSONEncoder(for: "x")
        #expect(encoder.outputFormatting.contains(.sortedKeys))
        guard case .millisecondsSince1970 = encoder.dateEncodingStrategy else { Issue.record("json date"); return }
        guard case .base64 = encoder.dataEncodingStrategy else { Issue.record("json data"); return }
        guard case .deferredToUUID = Player.databaseUUIDEncodingStrategy(for: "x") else { Issue.record("uuid"); return }
        guard case .useDefaultKeys = Player.databaseColumnEncodingStrategy else { Issue.record("columns"); return }
        #expect(Player.databaseEncodingUserInfo.isEmpty)
    }
}
