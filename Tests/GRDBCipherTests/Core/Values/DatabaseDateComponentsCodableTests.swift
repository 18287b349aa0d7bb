import Foundation
import Testing
@testable import GRDBCipher

/// A record field, as `Codable` records hold date components.
private struct Appointment: Codable, Equatable {
    var name: String
    var at: DatabaseDateComponents
}

private func components(
    year: Int? = nil, month: Int? = nil, day: Int? = nil,
    hour: Int? = nil, minute: Int? = nil, second: Int? = nil, nanosecond: Int? = nil) -> DateComponents
{
    DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
}

private func json(_ value: some Encodable) throws -> String {
    String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
}

private func fromJSON<T: Decodable>(_ text: String, as type: T.Type) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(text.utf8))
}

@Suite("DatabaseDateComponents Codable")
struct DatabaseDateComponentsCodableTests {
    @Test func encodesAsItsDatabaseText() throws {
        let cases: [(DatabaseDateComponents, String)] = [
            (DatabaseDateComponents(components(year: 1973, month: 9, day: 18), format: .YMD), "\"1973-09-18\""),
            (DatabaseDateComponents(components(year: 2024, month: 3, day: 1, hour: 14, minute: 30), format: .YMD_HM),
             "\"2024-03-01 14:30\""),
            (DatabaseDateComponents(components(hour: 7, minute: 5, second: 9), format: .HMS), "\"07:05:09\""),
            (DatabaseDateComponents(
                components(year: 2024, month: 3, day: 1, hour: 14, minute: 30, second: 5, nanosecond: 123_000_000),
                format: .YMD_HMSS), "\"2024-03-01 14:30:05.123\""),
        ]
        for (value, expected) in cases {
            #expect(try json(value) == expected)
            #expect(try json(value) == "\"\(try #require(String.fromDatabaseValue(value.databaseValue)))\"")
        }
    }

    @Test func encodingRoundsToTheNearestMillisecond() throws {
        let rounded = DatabaseDateComponents(components(hour: 1, minute: 2, second: 3, nanosecond: 123_500_000), format: .HMSS)
        #expect(try json(rounded) == "\"01:02:03.124\"")
        let truncated = DatabaseDateComponents(components(hour: 1, minute: 2, second: 3, nanosecond: 123_499_999), format: .HMSS)
        #expect(try json(truncated) == "\"01:02:03.123\"")
        // Never "1000", which would not read back.
        let last = DatabaseDateComponents(components(hour: 1, minute: 2, second: 3, nanosecond: 999_900_000), format: .HMSS)
        #expect(try json(last) == "\"01:02:03.999\"")
    }

    @Test func decodesEveryFormatTheDatabaseReads() throws {
        let ymd = try fromJSON("\"1973-09-18\"", as: DatabaseDateComponents.self)
        #expect(ymd.format == .YMD)
        #expect(ymd.dateComponents.year == 1973 && ymd.dateComponents.month == 9 && ymd.dateComponents.day == 18)

        let iso = try fromJSON("\"2024-03-01T14:30:05.5\"", as: DatabaseDateComponents.self)
        #expect(iso.format == .YMD_HMSS)
        #expect(iso.dateComponents.hour == 14 && iso.dateComponents.second == 5)
        #expect(iso.dateComponents.nanosecond == 500_000_000)

        let time = try fromJSON("\"23:59\"", as: DatabaseDateComponents.self)
        #expect(time.format == .HM)
        #expect(time.dateComponents.year == nil && time.dateComponents.minute == 59)

        let zoned = try fromJSON("\"2024-03-01 14:30+02:00\"", as: DatabaseDateComponents.self)
        #expect(zoned.dateComponents.timeZone?.secondsFromGMT() == 7200)
    }

    @Test func decodingMatchesTheDatabase() throws {
        try inMemoryDatabase { db throws in
            for text in ["2024-03-01", "2024-03-01 14:30:05.123", "14:30", "2024-03-01T14:30Z"] {
                let fromDatabase = try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [text])
                #expect(try fromJSON("\"\(text)\"", as: DatabaseDateComponents.self) == fromDatabase, "\(text)")
            }
        }
    }

    @Test func textThatIsNoDateFailsAsCorruptData() throws {
        for text in ["", "yesterday", "2024-3-01", "2024-03-01 25:00 later", "12"] {
            let error = #expect(throws: DecodingError.self) {
                try fromJSON("\"\(text)\"", as: DatabaseDateComponents.self)
            }
            guard case .dataCorrupted(let context)? = error else {
                Issue.record("\(text): expected dataCorrupted, got \(String(describing: error))")
                continue
            }
            // Decoding errors reach logs: the value is not in them.
            #expect(text.isEmpty || !context.debugDescription.contains(text))
        }
    }

    @Test func aNumberIsATypeMismatch() throws {
        let error = #expect(throws: DecodingError.self) {
            try fromJSON("20240301", as: DatabaseDateComponents.self)
        }
        guard case .typeMismatch? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
    }

    @Test func recordFieldRoundTripsThroughJSON() throws {
        let appointment = Appointment(
            name: "dentist",
            at: DatabaseDateComponents(components(year: 2024, month: 3, day: 1, hour: 9, minute: 15), format: .YMD_HM))
        let text = try json(appointment)
        #expect(text.contains("\"at\":\"2024-03-01 09:15\""))
        #expect(try fromJSON(text, as: Appointment.self) == appointment)
    }

    @Test func roundTripKeepsTheFormat() throws {
        for format in DatabaseDateComponents.Format.allCases {
            let value = DatabaseDateComponents(
                components(year: 2001, month: 2, day: 3, hour: 4, minute: 5, second: 6, nanosecond: 7_000_000),
                format: format)
            let decoded = try fromJSON(try json(value), as: DatabaseDateComponents.self)
            #expect(decoded.format == format)
            #expect(decoded.databaseValue == value.databaseValue, "\(format)")
        }
    }
}
