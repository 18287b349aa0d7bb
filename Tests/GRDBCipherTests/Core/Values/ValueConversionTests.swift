import Foundation
import Testing
@testable import GRDBCipher

// Conversions between Swift values and database values, both ways, through a
// private plaintext in-memory database.

/// Binds `value`, reads it back as `T` through the fast path (`fetchOne`) and
/// through a copied row (the `DatabaseValue` path).
private func roundTrip<T: DatabaseValueConvertible & StatementColumnConvertible>(
    _ value: T, _ db: Database) throws -> (fast: T?, row: T)
{
    let fast = try T.fetchOne(db, sql: "SELECT ?", arguments: [value])
    let row = try #require(try copiedRow(db, sql: "SELECT ? AS value", arguments: [value]))
    return (fast, try row.decode(T.self, forColumn: "value"))
}

/// The first row of a query, as a copy (a row that does not read a statement).
/// Row.fetchOne has its own tests in RowTests.
private func copiedRow(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row?
{
    try Row.fetchAll(db, sql: sql, arguments: arguments).first
}

private func storageClass(of value: (any DatabaseValueConvertible)?, _ db: Database) throws -> String? {
    try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [value])
}

private enum Color: String, DatabaseValueConvertible, StatementColumnConvertible {
    case red, green
}

private enum Level: Int, DatabaseValueConvertible, StatementColumnConvertible {
    case low = 1
    case high = 2
}

/// An enum that only has the `DatabaseValue` path (no fast path).
private enum Suit: String, DatabaseValueConvertible {
    case hearts, spades
}

@Suite("Value conversions")
struct ValueConversionTests {
    // MARK: - Bool

    @Test func boolIsStoredAsIntegerOneOrZero() throws {
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT ?", arguments: [true]) == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT ?", arguments: [false]) == 0)
            #expect(try storageClass(of: true, db) == "integer")
        }
    }

    @Test func boolRoundTrips() throws {
        try inMemoryDatabase { db throws in
            let yes = try roundTrip(true, db)
            let no = try roundTrip(false, db)
            #expect(yes.fast == true && yes.row == true)
            #expect(no.fast == false && no.row == false)
        }
    }

    @Test func boolDecodesAsGRDBDoes() throws {
        try inMemoryDatabase { db throws in
            // The fetch path reads SQLite's integer conversion, as GRDB does:
            // 0.5 is the integer 0, hence false.
            #expect(try Bool.fetchAll(db, sql: "VALUES (0), (1), (2), (-1), (0.0), (0.5)")
                == [false, true, true, true, false, false])
            // A copied row decodes its value: any non-zero number is true.
            let real = try #require(try copiedRow(db, sql: "SELECT 0.5 AS a"))
            #expect(try real.decode(Bool.self, forColumn: "a") == true)
            let row = try #require(try copiedRow(db, sql: "SELECT 0 AS a, 42 AS b"))
            #expect(try row.decode(Bool.self, forColumn: "a") == false)
            #expect(try row.decode(Bool.self, forColumn: "b") == true)
        }
    }

    @Test func boolDecodesTextOnTheFetchPathOnly() throws {
        try inMemoryDatabase { db throws in
            // SQLite converts text to an integer: '1' is 1, 'true' is 0.
            #expect(try Bool.fetchAll(db, sql: "VALUES ('1'), ('true')") == [true, false])
            let row = try #require(try copiedRow(db, sql: "SELECT 'true' AS a"))
            let error = #expect(throws: RowDecodingError.self) { try row.decode(Bool.self, forColumn: "a") }
            #expect(error?.kind == .valueMismatch)
        }
    }

    // MARK: - Integers

    @Test func int64BoundsRoundTrip() throws {
        try inMemoryDatabase { db throws in
            for value in [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value)
                #expect(result.row == value)
            }
            // SQLite sees the exact 64-bit integers, not approximations.
            #expect(try Bool.fetchOne(db, sql: "SELECT ? = -9223372036854775808", arguments: [Int64.min]) == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT ? = 9223372036854775807", arguments: [Int64.max]) == true)
            #expect(try storageClass(of: Int64.max, db) == "integer")
        }
    }

    @Test func signedIntegerBoundsRoundTrip() throws {
        try inMemoryDatabase { db throws in
            for value in [Int8.min, -1, 0, Int8.max] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            for value in [Int16.min, -1, 0, Int16.max] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            for value in [Int32.min, -1, 0, Int32.max] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            for value in [Int.min, -1, 0, Int.max] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
        }
    }

    @Test func unsignedIntegerBoundsRoundTrip() throws {
        try inMemoryDatabase { db throws in
            for value in [UInt8.min, 1, UInt8.max] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            for value in [UInt16.min, 1, UInt16.max] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            for value in [UInt32.min, 1, UInt32.max] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            // The largest unsigned values SQLite can store are Int64.max.
            for value in [UInt.min, 1, UInt(Int64.max)] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            for value in [UInt64.min, 1, UInt64(Int64.max)] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            #expect(try Int64.fetchOne(db, sql: "SELECT ?", arguments: [UInt32.max]) == 4_294_967_295)
        }
    }

    @Test func storingAnUnsignedValueAboveInt64MaxTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = UInt64.max.databaseValue
        }
    }

    @Test func fetchingTooLargeIntegerAsInt8ThrowsRowDecodingError() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: RowDecodingError.self) {
                try Int8.fetchAll(db, sql: "SELECT 300")
            }
            #expect(error?.kind == .valueMismatch)
        }
    }

    @Test func fetchingNegativeIntegerAsUInt8ThrowsRowDecodingError() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: RowDecodingError.self) {
                try UInt8.fetchAll(db, sql: "SELECT -1")
            }
            #expect(error?.kind == .valueMismatch)
        }
    }

    @Test func integerOverflowIsAnErrorAtEveryWidth() throws {
        try inMemoryDatabase { db throws in
            #expect(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT -129") }
            #expect(throws: RowDecodingError.self) { try Int16.fetchOne(db, sql: "SELECT 32768") }
            #expect(throws: RowDecodingError.self) { try Int32.fetchOne(db, sql: "SELECT 2147483648") }
            #expect(throws: RowDecodingError.self) { try UInt16.fetchOne(db, sql: "SELECT 65536") }
            #expect(throws: RowDecodingError.self) { try UInt32.fetchOne(db, sql: "SELECT -1") }
            #expect(throws: RowDecodingError.self) { try UInt64.fetchOne(db, sql: "SELECT -1") }
            #expect(throws: RowDecodingError.self) { try UInt.fetchOne(db, sql: "SELECT -9223372036854775808") }
            // The values just inside the bounds still decode.
            #expect(try Int8.fetchOne(db, sql: "SELECT -128") == -128)
            #expect(try UInt16.fetchOne(db, sql: "SELECT 65535") == 65535)
        }
    }

    @Test func rowDecodeOfOverflowingIntegerThrowsValueMismatch() throws {
        try inMemoryDatabase { db throws in
            // A copied row (DatabaseValue path)...
            let row = try #require(try copiedRow(db, sql: "SELECT 300 AS big, -1 AS negative"))
            let bigError = #expect(throws: RowDecodingError.self) { try row.decode(Int8.self, forColumn: "big") }
            #expect(bigError?.kind == .valueMismatch)
            #expect(bigError?.column == "big")
            let negativeError = #expect(throws: RowDecodingError.self) {
                try row.decode(UInt8.self, forColumn: "negative")
            }
            #expect(negativeError?.kind == .valueMismatch)

            // ...and a row that reads a statement (fast path).
            let cursor = try Row.fetchCursor(db, sql: "SELECT 300 AS big, -1 AS negative")
            let liveRow = try #require(try cursor.next())
            let liveError = #expect(throws: RowDecodingError.self) { try liveRow.decode(Int8.self, forColumn: "big") }
            #expect(liveError?.kind == .valueMismatch)
            #expect(throws: RowDecodingError.self) { try liveRow.decode(UInt8.self, forColumn: "negative") }
        }
    }

    @Test func realDecodesAsIntegerTruncatedTowardZero() throws {
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchAll(db, sql: "VALUES (3.9), (-3.9), (0.5)") == [3, -3, 0])
            let row = try #require(try copiedRow(db, sql: "SELECT 3.9 AS a"))
            #expect(try row.decode(Int.self, forColumn: "a") == 3)
        }
    }

    @Test func realOutOfIntegerRangeFailsToDecode() throws {
        try inMemoryDatabase { db throws in
            // The fetch path reads SQLite's conversion, which saturates, then
            // checks the width, as GRDB does.
            #expect(try Int.fetchOne(db, sql: "SELECT 1e20") == Int.max)
            #expect(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT 128.5") }
            let row = try #require(try copiedRow(db, sql: "SELECT 1e20 AS a"))
            #expect(throws: RowDecodingError.self) { try row.decode(Int64.self, forColumn: "a") }
        }
    }

    @Test func textDecodesAsIntegerOnTheFetchPathOnly() throws {
        try inMemoryDatabase { db throws in
            // As GRDB: the fetch path reads SQLite's conversion of the text...
            #expect(try Int.fetchAll(db, sql: "VALUES ('12'), ('abc')") == [12, 0])
            // A copied row decodes its value, and text is not an integer.
            let row = try #require(try copiedRow(db, sql: "SELECT '12' AS a"))
            let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "a") }
            #expect(error?.kind == .valueMismatch)
        }
    }

    // MARK: - Double and Float

    @Test func doubleRoundTrips() throws {
        try inMemoryDatabase { db throws in
            for value in [0.0, 1.5, -2.25, 1e-300, Double.greatestFiniteMagnitude, -Double.leastNonzeroMagnitude] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            #expect(try storageClass(of: 1.5, db) == "real")
        }
    }

    @Test func infinityRoundTrips() throws {
        try inMemoryDatabase { db throws in
            #expect(try roundTrip(Double.infinity, db).fast == .infinity)
            #expect(try roundTrip(-Double.infinity, db).row == -.infinity)
        }
    }

    @Test func nanIsStoredAsNull() throws {
        try inMemoryDatabase { db throws in
            #expect(try storageClass(of: Double.nan, db) == "null")
            #expect(try Double.fetchOne(db, sql: "SELECT ?", arguments: [Double.nan]) == nil)
            #expect(try Double?.fetchAll(db, sql: "SELECT ?", arguments: [Double.nan]) == [nil])
            try db.execute(sql: "CREATE TABLE t (x REAL)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [Double.nan])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE x IS NULL") == 1)
        }
    }

    @Test func integerDecodesAsDouble() throws {
        try inMemoryDatabase { db throws in
            #expect(try Double.fetchOne(db, sql: "SELECT 3") == 3.0)
            let row = try #require(try copiedRow(db, sql: "SELECT 3 AS a"))
            #expect(try row.decode(Double.self, forColumn: "a") == 3.0)
        }
    }

    @Test func floatRoundTrips() throws {
        try inMemoryDatabase { db throws in
            for value: Float in [0, 0.1, -1.5, Float.greatestFiniteMagnitude] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            #expect(try storageClass(of: Float(0.5), db) == "real")
        }
    }

    @Test func textDecodesAsDoubleOnTheFetchPathOnly() throws {
        try inMemoryDatabase { db throws in
            #expect(try Double.fetchOne(db, sql: "SELECT '1.5'") == 1.5)
            let row = try #require(try copiedRow(db, sql: "SELECT '1.5' AS a"))
            #expect(throws: RowDecodingError.self) { try row.decode(Double.self, forColumn: "a") }
        }
    }

    // MARK: - String

    @Test func stringWithEmojiAndQuotesRoundTrips() throws {
        try inMemoryDatabase { db throws in
            for value in ["", "Arthur", "it's \"quoted\"", "👨‍👩‍👧‍👦 café 日本語", "'); DROP TABLE t; --"] {
                let result = try roundTrip(value, db)
                #expect(result.fast == value && result.row == value)
            }
            #expect(try storageClass(of: "", db) == "text")
        }
    }

    @Test func stringWithEmbeddedNulRoundTrips() throws {
        try inMemoryDatabase { db throws in
            let value = "a\u{0}b"
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
            #expect(try Int.fetchOne(db, sql: "SELECT length(CAST(? AS BLOB))", arguments: [value]) == 3)
        }
    }

    @Test func stringIsStoredAsUTF8() throws {
        try inMemoryDatabase { db throws in
            let blob = try Data.fetchOne(db, sql: "SELECT CAST(? AS BLOB)", arguments: ["é😀"])
            #expect(blob == Data("é😀".utf8))
        }
    }

    // MARK: - Data

    @Test func dataRoundTrips() throws {
        try inMemoryDatabase { db throws in
            let value = Data([0, 1, 2, 0, 255])
            let result = try roundTrip(value, db)
            #expect(result.fast == value && result.row == value)
            #expect(try storageClass(of: value, db) == "blob")
            #expect(try Int.fetchOne(db, sql: "SELECT length(?)", arguments: [value]) == 5)
        }
    }

    @Test func emptyDataIsAnEmptyBlobNotNull() throws {
        try inMemoryDatabase { db throws in
            #expect(try storageClass(of: Data(), db) == "blob")
            #expect(try storageClass(of: nil, db) == "null")
            #expect(try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data()]) == Data())
            #expect(try Data?.fetchAll(db, sql: "SELECT ?", arguments: [Data()]) == [Data()])
            #expect(try Data.fetchOne(db, sql: "SELECT x''") == Data())
            try db.execute(sql: "CREATE TABLE t (b BLOB)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [Data()])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE b IS NOT NULL AND length(b) = 0") == 1)
        }
    }

    @Test func textDecodesAsDataOfItsUTF8Bytes() throws {
        try inMemoryDatabase { db throws in
            #expect(try Data.fetchOne(db, sql: "SELECT 'abc'") == Data("abc".utf8))
            let row = try #require(try copiedRow(db, sql: "SELECT 'abc' AS a"))
            #expect(try row.decode(Data.self, forColumn: "a") == Data("abc".utf8))
        }
    }

    // MARK: - Date

    @Test func dateIsStoredAsUTCTextWithMilliseconds() throws {
        try inMemoryDatabase { db throws in
            let date = Date(timeIntervalSince1970: 1_000_000_000.123)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "2001-09-09 01:46:40.123")
            #expect(try storageClass(of: date, db) == "text")
        }
    }

    @Test func dateBefore1970IsStoredAsUTCText() throws {
        try inMemoryDatabase { db throws in
            let date = Date(timeIntervalSince1970: -1.5)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "1969-12-31 23:59:58.500")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [Date(timeIntervalSince1970: 0)])
                == "1970-01-01 00:00:00.000")
        }
    }

    @Test func dateRoundTripsToTheMillisecond() throws {
        try inMemoryDatabase { db throws in
            let date = Date(timeIntervalSince1970: 1_000_000_000.123)
            let result = try roundTrip(date, db)
            let fast = try #require(result.fast)
            #expect(abs(fast.timeIntervalSince1970 - 1_000_000_000.123) < 0.0005)
            #expect(abs(result.row.timeIntervalSince1970 - 1_000_000_000.123) < 0.0005)
        }
    }

    @Test func storedDateFeedsSQLiteDateFunctions() throws {
        try inMemoryDatabase { db throws in
            let date = Date(timeIntervalSince1970: 1_000_000_000.123)
            #expect(try String.fetchOne(db, sql: "SELECT datetime(?)", arguments: [date]) == "2001-09-09 01:46:40")
            #expect(try Int.fetchOne(db, sql: "SELECT CAST(strftime('%s', ?) AS INTEGER)", arguments: [date])
                == 1_000_000_000)
        }
    }

    @Test(arguments: [
        "2001-09-09T01:46:40Z",
        "2001-09-09 01:46:40",
        "2001-09-09T01:46:40.000",
        "2001-09-09 03:46:40+02:00",
        "2001-09-08 19:46:40-06:00",
    ])
    func dateDecodesFromSQLiteTextFormats(text: String) throws {
        try inMemoryDatabase { db throws in
            let fast = try #require(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]))
            #expect(fast == Date(timeIntervalSince1970: 1_000_000_000))
            let row = try #require(try copiedRow(db, sql: "SELECT ? AS d", arguments: [text]))
            #expect(try row.decode(Date.self, forColumn: "d") == Date(timeIntervalSince1970: 1_000_000_000))
        }
    }

    @Test func dateDecodesFromDayOnlyTextAsUTCMidnight() throws {
        try inMemoryDatabase { db throws in
            #expect(try Date.fetchOne(db, sql: "SELECT '2001-09-09'") == Date(timeIntervalSince1970: 999_993_600))
            let row = try #require(try copiedRow(db, sql: "SELECT '2001-09-09' AS d"))
            #expect(try row.decode(Date.self, forColumn: "d") == Date(timeIntervalSince1970: 999_993_600))
        }
    }

    @Test func dateDecodesFromUnixTimestamps() throws {
        try inMemoryDatabase { db throws in
            #expect(try Date.fetchOne(db, sql: "SELECT 1000000000") == Date(timeIntervalSince1970: 1_000_000_000))
            #expect(try Date.fetchOne(db, sql: "SELECT 1000000000.5") == Date(timeIntervalSince1970: 1_000_000_000.5))
            let row = try #require(try copiedRow(db, sql: "SELECT 1000000000 AS i, 1000000000.5 AS d"))
            #expect(try row.decode(Date.self, forColumn: "i") == Date(timeIntervalSince1970: 1_000_000_000))
            #expect(try row.decode(Date.self, forColumn: "d") == Date(timeIntervalSince1970: 1_000_000_000.5))
        }
    }

    @Test func dateFromJulianDayMatchesSQLite() throws {
        try inMemoryDatabase { db throws in
            let julianDay = try #require(try Double.fetchOne(db, sql: "SELECT julianday('2001-09-09 01:46:40')"))
            let date = try #require(Date(julianDay: julianDay))
            #expect(abs(date.timeIntervalSince1970 - 1_000_000_000) < 0.001)
            let epoch = try #require(try Double.fetchOne(db, sql: "SELECT julianday('1970-01-01')"))
            #expect(Date(julianDay: epoch) == Date(timeIntervalSince1970: 0))
            #expect(Date(julianDay: .nan) == nil)
            #expect(Date(julianDay: .infinity) == nil)
        }
    }

    // Out-of-range components ("2001-13-01") roll over, as in GRDB: see DateCompatibilityTests.
    @Test(arguments: ["not a date", "2001-09-09 03:46:40+0200", "12:30", "2001-09-09 01:46:40 garbage"])
    func dateFailsToDecodeFromInvalidText(text: String) throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: RowDecodingError.self) {
                try Date.fetchOne(db, sql: "SELECT ?", arguments: [text])
            }
            #expect(error?.kind == .valueMismatch)
            let row = try #require(try copiedRow(db, sql: "SELECT ? AS d", arguments: [text]))
            #expect(throws: RowDecodingError.self) { try row.decode(Date.self, forColumn: "d") }
        }
    }

    // MARK: - DatabaseDateComponents

    private static func sampleComponents() -> DateComponents {
        var components = DateComponents()
        components.year = 2001
        components.month = 9
        components.day = 9
        components.hour = 1
        components.minute = 46
        components.second = 40
        components.nanosecond = 123_000_000
        return components
    }

    @Test(arguments: [
        (DatabaseDateComponents.Format.YMD, "2001-09-09"),
        (.YMD_HM, "2001-09-09 01:46"),
        (.YMD_HMS, "2001-09-09 01:46:40"),
        (.YMD_HMSS, "2001-09-09 01:46:40.123"),
        (.HM, "01:46"),
        (.HMS, "01:46:40"),
        (.HMSS, "01:46:40.123"),
    ])
    func dateComponentsStoreInTheirFormat(format: DatabaseDateComponents.Format, text: String) throws {
        try inMemoryDatabase { db throws in
            let value = DatabaseDateComponents(Self.sampleComponents(), format: format)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [value]) == text)
        }
    }

    @Test(arguments: DatabaseDateComponents.Format.allCases)
    func dateComponentsRoundTripInEachFormat(format: DatabaseDateComponents.Format) throws {
        try inMemoryDatabase { db throws in
            let value = DatabaseDateComponents(Self.sampleComponents(), format: format)
            let result = try roundTrip(value, db)
            let decoded = try #require(result.fast)
            #expect(decoded.format == format)
            #expect(result.row.format == format)
            let c = decoded.dateComponents
            if format.hasDate {
                #expect(c.year == 2001 && c.month == 9 && c.day == 9)
            } else {
                #expect(c.year == nil && c.month == nil && c.day == nil)
            }
            if format == .YMD {
                #expect(c.hour == nil && c.minute == nil)
            } else {
                #expect(c.hour == 1 && c.minute == 46)
            }
            switch format {
            case .YMD_HMS, .HMS:
                #expect(c.second == 40)
            case .YMD_HMSS, .HMSS:
                #expect(c.second == 40 && c.nanosecond == 123_000_000)
            default:
                #expect(c.second == nil)
            }
            #expect(result.row.dateComponents == c)
        }
    }

    @Test func dateComponentsParseTheTSeparator() throws {
        try inMemoryDatabase { db throws in
            let value = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2001-09-09T01:46:40'"))
            #expect(value.format == .YMD_HMS)
            #expect(value.dateComponents.hour == 1 && value.dateComponents.second == 40)
        }
    }

    @Test func dateComponentsParseTimeZones() throws {
        try inMemoryDatabase { db throws in
            let plus = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2001-09-09 03:46:40+02:00'"))
            #expect(plus.dateComponents.timeZone?.secondsFromGMT() == 7200)
            #expect(plus.dateComponents.hour == 3)
            #expect(plus.format == .YMD_HMS)
            let minus = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2001-09-09 01:46-05:30'"))
            #expect(minus.dateComponents.timeZone?.secondsFromGMT() == -19800)
            #expect(minus.format == .YMD_HM)
            let zulu = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2001-09-09T01:46:40.5Z'"))
            #expect(zulu.dateComponents.timeZone?.secondsFromGMT() == 0)
            #expect(zulu.dateComponents.nanosecond == 500_000_000)
            let local = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2001-09-09 01:46:40'"))
            #expect(local.dateComponents.timeZone == nil)
        }
    }

    @Test func dateComponentsParseTimeOnlyText() throws {
        try inMemoryDatabase { db throws in
            let value = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '13:14:15.5'"))
            #expect(value.format == .HMSS)
            #expect(value.dateComponents.year == nil)
            #expect(value.dateComponents.hour == 13)
            #expect(value.dateComponents.minute == 14)
            #expect(value.dateComponents.second == 15)
            #expect(value.dateComponents.nanosecond == 500_000_000)
            let row = try #require(try copiedRow(db, sql: "SELECT '23:59' AS t"))
            let hm = try row.decode(DatabaseDateComponents.self, forColumn: "t")
            #expect(hm.format == .HM)
            #expect(hm.dateComponents.hour == 23 && hm.dateComponents.minute == 59)
        }
    }

    @Test(arguments: ["2001-09-09 01:46:40.", "2001-9-9", "tomorrow", "12:6", "12:30+1", "2001-09-09Z"])
    func dateComponentsRejectInvalidText(text: String) throws {
        try inMemoryDatabase { db throws in
            #expect(throws: RowDecodingError.self) {
                try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [text])
            }
            #expect(DatabaseDateComponents.fromDatabaseValue(text.databaseValue) == nil)
        }
    }

    // MARK: - UUID

    @Test func uuidIsStoredAsA16ByteBlob() throws {
        try inMemoryDatabase { db throws in
            let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            #expect(try storageClass(of: uuid, db) == "blob")
            let blob = try #require(try Data.fetchOne(db, sql: "SELECT ?", arguments: [uuid]))
            #expect(blob == Data([0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A,
                                  0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F]))
        }
    }

    @Test func uuidRoundTrips() throws {
        try inMemoryDatabase { db throws in
            let uuid = UUID()
            let result = try roundTrip(uuid, db)
            #expect(result.fast == uuid && result.row == uuid)
        }
    }

    @Test func uuidDecodesFromText() throws {
        try inMemoryDatabase { db throws in
            let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            #expect(try UUID.fetchOne(db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'") == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == uuid)
            let row = try #require(try copiedRow(db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F' AS u"))
            #expect(try row.decode(UUID.self, forColumn: "u") == uuid)
        }
    }

    @Test func uuidFailsToDecodeFromWrongSizedBlobOrBadText() throws {
        try inMemoryDatabase { db throws in
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT x'0102'") }
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT 'not-a-uuid'") }
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT 12") }
            let row = try #require(try copiedRow(db, sql: "SELECT x'0102' AS u"))
            #expect(throws: RowDecodingError.self) { try row.decode(UUID.self, forColumn: "u") }
        }
    }

    // MARK: - URL

    @Test func urlIsStoredAsItsAbsoluteStringAndRoundTrips() throws {
        try inMemoryDatabase { db throws in
            let url = try #require(URL(string: "https://example.com/a%20b/c?q=1&r=%C3%A9#frag"))
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [url]) == url.absoluteString)
            #expect(try URL.fetchOne(db, sql: "SELECT ?", arguments: [url]) == url)
            let fileURL = URL(fileURLWithPath: "/tmp/some file.txt")
            #expect(try URL.fetchOne(db, sql: "SELECT ?", arguments: [fileURL]) == fileURL)
        }
    }

    @Test func urlDoesNotDecodeFromNonText() throws {
        try inMemoryDatabase { db throws in
            #expect(throws: RowDecodingError.self) { try URL.fetchOne(db, sql: "SELECT 1") }
        }
    }

    // MARK: - Decimal

    @Test func decimalIsStoredAsTextAndRoundTrips() throws {
        try inMemoryDatabase { db throws in
            let value = try #require(Decimal(string: "10.5", locale: Locale(identifier: "en_US_POSIX")))
            #expect(try storageClass(of: value, db) == "text")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [value]) == "10.5")
            #expect(try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
        }
    }

    @Test func decimalKeepsAllItsDigits() throws {
        try inMemoryDatabase { db throws in
            let text = "12345678901234567890.123456789"
            let value = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [value]) == text)
            #expect(try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
        }
    }

    @Test func decimalDecodesFromNumbers() throws {
        try inMemoryDatabase { db throws in
            #expect(try Decimal.fetchOne(db, sql: "SELECT 42") == Decimal(42))
            #expect(try Decimal.fetchOne(db, sql: "SELECT 1.25") == Decimal(string: "1.25", locale: Locale(identifier: "en_US_POSIX")))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '-3.5e2'") == Decimal(-350))
        }
    }

    // Decimal(string:) reads a number at the start of the text ("12abc" is
    // 12), as in GRDB; text without one fails.
    @Test(arguments: ["abc", "", "x12"])
    func decimalFailsToDecodeFromNonNumericText(text: String) throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: RowDecodingError.self) {
                try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [text])
            }
            #expect(error?.kind == .valueMismatch)
        }
    }

    // MARK: - RawRepresentable

    @Test func stringEnumIsStoredAsItsRawValueAndRoundTrips() throws {
        try inMemoryDatabase { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [Color.green]) == "green")
            let result = try roundTrip(Color.red, db)
            #expect(result.fast == .red && result.row == .red)
            #expect(try Suit.fetchOne(db, sql: "SELECT ?", arguments: [Suit.spades]) == .spades)
        }
    }

    @Test func intEnumIsStoredAsItsRawValueAndRoundTrips() throws {
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT ?", arguments: [Level.high]) == 2)
            #expect(try storageClass(of: Level.low, db) == "integer")
            let result = try roundTrip(Level.low, db)
            #expect(result.fast == .low && result.row == .low)
        }
    }

    @Test func enumWithUnknownRawValueFailsToDecode() throws {
        try inMemoryDatabase { db throws in
            let colorError = #expect(throws: RowDecodingError.self) { try Color.fetchAll(db, sql: "SELECT 'purple'") }
            #expect(colorError?.kind == .valueMismatch)
            #expect(throws: RowDecodingError.self) { try Level.fetchAll(db, sql: "SELECT 3") }
            #expect(throws: RowDecodingError.self) { try Suit.fetchAll(db, sql: "SELECT 'clubs'") }
            let row = try #require(try copiedRow(db, sql: "SELECT 'purple' AS c, 3 AS l"))
            #expect(throws: RowDecodingError.self) { try row.decode(Color.self, forColumn: "c") }
            #expect(throws: RowDecodingError.self) { try row.decode(Level.self, forColumn: "l") }
        }
    }

    // MARK: - Optional

    @Test func nullDecodesAsNilOptional() throws {
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try String.fetchOne(db, sql: "SELECT NULL") == nil)
            let row = try #require(try copiedRow(db, sql: "SELECT NULL AS a"))
            #expect(try row.decode(Int?.self, forColumn: "a") == nil)
            #expect(try row.decodeIfPresent(Int.self, forColumn: "a") == nil)
        }
    }

    @Test func nilOptionalIsStoredAsNull() throws {
        try inMemoryDatabase { db throws in
            let none: Int? = nil
            #expect(try storageClass(of: none, db) == "null")
            #expect(try Bool.fetchOne(db, sql: "SELECT ? IS NULL", arguments: [none]) == true)
            let some: Int? = 5
            #expect(try Int.fetchOne(db, sql: "SELECT ?", arguments: [some]) == 5)
        }
    }

    @Test func optionalFetchAllKeepsNulls() throws {
        try inMemoryDatabase { db throws in
            let sql = "VALUES (1), (NULL), (3)"
            #expect(try Int?.fetchAll(db, sql: sql) == [1, nil, 3])
            #expect(try Decimal?.fetchAll(db, sql: sql) == [Decimal(1), nil, Decimal(3)])
        }
    }

    @Test func nonOptionalFetchAllRejectsNull() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: RowDecodingError.self) { try Int.fetchAll(db, sql: "VALUES (1), (NULL)") }
            #expect(error?.kind == .valueMismatch)
            #expect(throws: RowDecodingError.self) { try Decimal.fetchAll(db, sql: "VALUES (1), (NULL)") }
        }
    }

    @Test func optionalStillRejectsUndecodableValues() throws {
        try inMemoryDatabase { db throws in
            #expect(throws: RowDecodingError.self) { try Int8?.fetchAll(db, sql: "VALUES (NULL), (300)") }
            let row = try #require(try copiedRow(db, sql: "SELECT 'text' AS a"))
            #expect(throws: RowDecodingError.self) { try row.decode(Int?.self, forColumn: "a") }
        }
    }

    // MARK: - DatabaseValue

    @Test func databaseValueStorageMatchesSQLiteStorageClasses() throws {
        try inMemoryDatabase { db throws in
            let values = try DatabaseValue.fetchAll(db, sql: "VALUES (NULL), (1), (1.5), ('a'), (x'00')")
            #expect(values.map(\.storage) == [.null, .int64(1), .double(1.5), .string("a"), .blob(Data([0]))])
        }
    }

    @Test func databaseValueComparesIntegerAndRealLikeSQLite() {
        #expect(DatabaseValue(storage: .int64(1)) == DatabaseValue(storage: .double(1.0)))
        #expect(DatabaseValue(storage: .int64(1)).hashValue == DatabaseValue(storage: .double(1.0)).hashValue)
        #expect(DatabaseValue(storage: .int64(1)) != DatabaseValue(storage: .double(1.5)))
        #expect(DatabaseValue(storage: .int64(1)) != DatabaseValue(storage: .string("1")))
    }

    @Test func databaseValueDescriptionIsGRDBs() {
        #expect(DatabaseValue.null.description == "NULL")
        #expect(DatabaseValue(value: 12)?.description == "12")
        #expect(DatabaseValue(value: "it's")?.description == #""it\'s""#)
        #expect(DatabaseValue(value: Data([0x0A, 0x1B]))?.description == "Data(2 bytes)")
    }
}
