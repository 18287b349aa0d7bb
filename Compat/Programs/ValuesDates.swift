#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// Prints a date as its Unix time, precise enough to show sub-millisecond differences.
func unixTime(_ date: Date?) -> String {
    guard let date else { return "nil" }
    return String(format: "%.6f", date.timeIntervalSince1970)
}

/// Prints the components of a `DatabaseDateComponents`, or nil.
func componentsLine(_ components: DatabaseDateComponents?) -> String {
    guard let components else { return "nil" }
    let c = components.dateComponents
    let values: [Int?] = [c.year, c.month, c.day, c.hour, c.minute, c.second, c.nanosecond]
    let text = values.map { $0.map(String.init) ?? "-" }.joined(separator: " ")
    return "\(components.format) \(text) tz=\(c.timeZone.map { String($0.secondsFromGMT()) } ?? "-")"
}

let dateEdgePrograms: [Program] = [
    // Dates stored by Date.databaseValue: fractions of milliseconds, negative times, far dates.
    Program("values-dates-storage") {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db in
            let times: [Double] = [
                1_234_567_890.123456, 1_234_567_890.9999, 1_234_567_890.0005, 1_234_567_890.0004,
                1_234_567_890.001, 1_234_567_890.007, 1_234_567_890.009, 0.001, 0.3, 1.7, -0.0001, -0.0006,
                -1.5, -86_400.0004, 1_000_000_000.005, 1_700_000_000.999_999_9,
                // 1000-01-01, 0001-01-01, 1582-10-14 and 1582-10-15 (proleptic Gregorian), 10000-01-01
                -30_610_224_000, -62_135_596_800, -12_219_379_200, -12_219_292_800, 253_402_300_800,
                // year 0 and earlier, distantPast, and halves of milliseconds
                -62_167_392_000, -62_198_928_000, -65_000_000_000, -62_135_769_600, 0.0005, -0.0005, -1.0005, 2.0005,
                1_234_567_890.0015, -12_219_292_800.0005,
            ]
            for time in times {
                let date = Date(timeIntervalSince1970: time)
                quietly {
                    step("store \(time)") { "\(date.databaseValue)" }
                    step("round trip \(time)") {
                        unixTime(try Date.fetchOne(db, sql: "SELECT ?", arguments: [date]))
                    }
                    step("fromDatabaseValue \(time)") { unixTime(Date.fromDatabaseValue(date.databaseValue)) }
                }
            }
            // A record stores its dates the same way.
            try db.execute(sql: "CREATE TABLE event (id INTEGER PRIMARY KEY, date DATETIME)")
            try db.execute(sql: "INSERT INTO event (date) VALUES (?)",
                           arguments: [Date(timeIntervalSince1970: 1_234_567_890.987654)])
            quietly {
                step("stored column") { try String.fetchOne(db, sql: "SELECT date FROM event") }
                step("sqlite reads it") { try String.fetchOne(db, sql: "SELECT julianday(date) FROM event") }
            }
            for (label, julianDay) in [("j1", 2_454_876.480_440_9), ("j2", 2_440_587.5), ("j3", 2_299_160.5),
                                       ("j4", 1_721_425.5), ("j5", 2_454_876.123_456_789)] {
                quietly { step("julianDay \(label)") { unixTime(Date(julianDay: julianDay)) } }
            }
            let components: [(String, DatabaseDateComponents)] = [
                ("ns 999600000", DatabaseDateComponents(
                    DateComponents(year: 2020, month: 1, day: 2, hour: 3, minute: 4, second: 5, nanosecond: 999_600_000),
                    format: .YMD_HMSS)),
                ("ns 1500000", DatabaseDateComponents(
                    DateComponents(hour: 3, minute: 4, second: 5, nanosecond: 1_500_000), format: .HMSS)),
                ("year -5", DatabaseDateComponents(DateComponents(year: -5, month: 1, day: 2), format: .YMD)),
                ("year 12345", DatabaseDateComponents(DateComponents(year: 12345, month: 1, day: 2), format: .YMD)),
                ("month 13", DatabaseDateComponents(DateComponents(year: 2009, month: 13, day: 45), format: .YMD)),
            ]
            for (label, value) in components {
                quietly { step("components \(label)") { "\(value.databaseValue)" } }
            }
        }
    },
    // Texts decoded as dates and date components, by row decoding and by fromDatabaseValue.
    Program("values-dates-parsing") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            let texts = [
                "2009-02-13 23:31:30.1", "2009-02-13 23:31:30.12", "2009-02-13 23:31:30.1234", "2009-02-13 23:31:30.9999",
                "2009-02-13 23:31:30.1Z", "2009-02-13 23:31:30.12+01:00", "2009-02-13 23:31:30.123456-02:30",
                "2009-02-13 23:31:30.", "2009-02-13 23:31:30.x", "2009-02-13 23:31:30.123Zjunk", "2009-02-13 23:31:30.1234x",
                "2009-02-13 24:00", "2009-02-13 23:60:61", "2009-02-30", "2009-00-00", "2009-02-13 99:99:99",
                "2009-02-13T23:31+01:00", "2009-02-13T23:31Z", "2009-02-13 23:31:30+0100", "2009-02-13 23:31:30+25:00",
                "2009-02-13 23:31:30+01:99", "2009-02-13 23:31:30-01:00", "2009-02-13 23:31:30 ", "2009-02-13Z",
                "23:31+01:00", "23:31:30.5Z", "25:61", "23:31:30.1234", "23:31:30.123456789",
                "1000-01-01", "0001-01-01", "1582-10-10", "1582-10-15", "0000-01-01", "9999-12-31 23:59:59.999",
                "1581-24-01", "1582-09-40", "1582-10-00", "1582-10-14", "1582-10-14 23:59:59.999", "-100-01-01",
                "2009-2-13", "2009-02-13 3:04", "20090-02-13", "2009/02/13", "2009-02-1", "12:3", "12:34:5",
            ]
            for text in texts {
                quietly {
                    step("'\(text)' as Date") {
                        unixTime(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]))
                    }
                    step("'\(text)' fromDatabaseValue") { unixTime(Date.fromDatabaseValue(text.databaseValue)) }
                    step("'\(text)' as components") {
                        componentsLine(try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [text]))
                    }
                    step("'\(text)' components fromDatabaseValue") {
                        componentsLine(DatabaseDateComponents.fromDatabaseValue(text.databaseValue))
                    }
                }
            }
        }
    },
    // The formats of GRDB's documentation, as Date and NSDate, by every fetch path.
    Program("values-dates-formats") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            let texts = [
                "2009-02-13", "2009-02-13 23:31", "2009-02-13 23:31:30", "2009-02-13 23:31:30.123",
                "2009-02-13T23:31", "2009-02-13T23:31:30", "2009-02-13T23:31:30.123",
                "2009-02-13 23:31Z", "2009-02-13 23:31:30Z", "2009-02-13T23:31:30.123Z", "2009-02-13T23:31:30.123+05:30",
                "2009-02-13 23:31:30.123-08:00", "2009-02-13T23:31:30.1", "2009-02-13T23:31:30.12",
                "2009-02-13T23:31:30.123456", "2009-02-13T23:31:30.123456789Z", "2009-02-13T23:31:30.5-00:30",
                "2009-02-13t23:31:30", "2009-02-13 23:31:30.123 +01:00", "2009-02-13T23:31:30,123",
            ]
            for text in texts {
                quietly {
                    step("'\(text)' Date fetchOne") { unixTime(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text])) }
                    step("'\(text)' Date fetchAll") {
                        try Date.fetchAll(db, sql: "SELECT ?", arguments: [text]).map { unixTime($0) }
                    }
                    step("'\(text)' Date row") { unixTime(try firstRow(db, "SELECT ?", arguments: [text]).decode(Date?.self, atIndex: 0)) }
                    step("'\(text)' NSDate fetchOne") {
                        unixTime(try NSDate.fetchOne(db, sql: "SELECT ?", arguments: [text]).map { $0 as Date })
                    }
                    step("'\(text)' NSDate fromDatabaseValue") {
                        unixTime(NSDate.fromDatabaseValue(text.databaseValue).map { $0 as Date })
                    }
                }
            }
            for sql in ["SELECT 1234567890", "SELECT 1234567890.5", "SELECT -1.25", "SELECT x'00'"] {
                quietly {
                    step("\(sql) Date") { unixTime(try Date.fetchOne(db, sql: sql)) }
                    step("\(sql) NSDate") { unixTime(try NSDate.fetchOne(db, sql: sql).map { $0 as Date }) }
                }
            }
        }
    },
]
