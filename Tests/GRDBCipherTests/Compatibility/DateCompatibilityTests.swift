import Foundation
import Testing
@testable import GRDBCipher

/// Dates as GRDB 7.10 stores and reads them on Linux (observed with the
/// differential harness, `make compat`): stored text rounded half up to the
/// millisecond, fractions read to the millisecond, out-of-range components
/// rolled over, the Julian calendar before 1582-10-15.
@Suite struct DateCompatibilityTests {
    private func storedText(_ date: Date) -> String? {
        String.fromDatabaseValue(date.databaseValue)
    }

    private func date(_ text: String, _ db: Database) throws -> Date? {
        try Date.fetchOne(db, sql: "SELECT ?", arguments: [text])
    }

    @Test func storedDatesRoundHalfUpToTheMillisecond() {
        #expect(storedText(Date(timeIntervalSince1970: 1_234_567_890.9999)) == "2009-02-13 23:31:31.000")
        #expect(storedText(Date(timeIntervalSince1970: 1_234_567_890.0004)) == "2009-02-13 23:31:30.000")
        #expect(storedText(Date(timeIntervalSince1970: -0.0006)) == "1969-12-31 23:59:59.999")
        // Exactly half a millisecond before the Gregorian calendar starts: up.
        #expect(storedText(Date(timeIntervalSince1970: -12_219_292_800.0005)) == "1582-10-15 00:00:00.000")
    }

    @Test func fractionsReadToTheMillisecond() throws {
        try inEncryptedDatabase { db throws in
            for text in ["2009-02-13 23:31:30.123456", "2009-02-13 23:31:30.1239"] {
                let value = try #require(try date(text, db))
                #expect(abs(value.timeIntervalSince1970 - 1_234_567_890.123) < 1e-6, "\(text)")
                let components = try #require(DatabaseDateComponents.fromDatabaseValue(text.databaseValue))
                #expect(components.dateComponents.nanosecond == 123_000_000)
            }
            let zoned = try #require(DatabaseDateComponents.fromDatabaseValue("23:31:30.123456-02:30".databaseValue))
            #expect(zoned.dateComponents.nanosecond == 123_000_000)
            #expect(zoned.dateComponents.timeZone?.secondsFromGMT() == -9000)
        }
    }

    @Test func outOfRangeComponentsRollOver() throws {
        try inEncryptedDatabase { db throws in
            #expect(try date("2009-13-45", db) == date("2010-02-14", db))
            #expect(try date("2009-02-13 24:00", db) == date("2009-02-14 00:00", db))
            #expect(try date("2009-02-13 23:60:61", db) == date("2009-02-14 00:01:01", db))
            #expect(try date("2009-00-00", db) == date("2008-11-30", db))
            let components = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2009-13-45'"))
            #expect(components.dateComponents.month == 13 && components.dateComponents.day == 45)
        }
    }

    @Test func timeZonesAreWrittenWithAColon() throws {
        try inEncryptedDatabase { db throws in
            #expect(throws: RowDecodingError.self) { try date("2009-02-13 23:31:30+0100", db) }
            // An offset Foundation refuses leaves no time zone: UTC.
            #expect(try date("2009-02-13 23:31:30+25:00", db) == date("2009-02-13 23:31:30", db))
            #expect(try date("2009-02-13 23:31+01:00", db) == date("2009-02-13 22:31", db))
        }
    }

    @Test func datesBeforeTheGregorianCalendarAreJulian() throws {
        // 1000-01-01 (proleptic Gregorian) is 0999-12-27 in the Julian calendar.
        let gregorian1000 = Date(timeIntervalSince1970: -30_610_224_000)
        #expect(storedText(gregorian1000) == "0999-12-27 00:00:00.000")
        #expect(storedText(Date(timeIntervalSince1970: -12_219_292_800)) == "1582-10-15 00:00:00.000")
        #expect(storedText(Date(timeIntervalSince1970: -12_219_292_800.001)) == "1582-10-04 23:59:59.999")
        // 1 BC is written as its year of era.
        #expect(storedText(Date(timeIntervalSince1970: -62_167_392_000)) == "0001-01-01 00:00:00.000")
        try inEncryptedDatabase { db throws in
            #expect(try date("0999-12-27", db) == gregorian1000)
            #expect(try date("1000-01-01", db) == Date(timeIntervalSince1970: -30_609_792_000))
            // Days of the gap are Julian: 1582-10-10 is 1582-10-20 Gregorian.
            #expect(try date("1582-10-10", db) == date("1582-10-20", db))
            // The month rolls over before the calendar is chosen.
            #expect(try date("1581-24-01", db) == date("1582-12-01", db))
            #expect(try Date.fetchOne(db, sql: "SELECT ?", arguments: [gregorian1000]) == gregorian1000)
        }
    }

    @Test func julianDaysKeepMillisecondsAndTheJulianCalendar() throws {
        let date = try #require(Date(julianDay: 2_454_876.123_456_789))
        #expect(abs(date.timeIntervalSince1970 - 1_234_537_066.666) < 1e-6)
        // SQLite's 0001-01-01 is a Gregorian day, read as a Julian date.
        #expect(Date(julianDay: 1_721_425.5) == Date(timeIntervalSince1970: -62_135_769_600))
        #expect(Date(julianDay: 1e300) == nil)
    }

    @Test func componentsWriteNegativeYearsAsPrintfDoes() {
        let components = DatabaseDateComponents(DateComponents(year: -5, month: 1, day: 2), format: .YMD)
        #expect(String.fromDatabaseValue(components.databaseValue) == "-005-01-02")
    }
}
