import CSQLCipher
import Foundation

extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as "YYYY-MM-DD HH:MM:SS.SSS" in UTC, precise to the millisecond:
    /// it sorts, compares with `CURRENT_TIMESTAMP` and feeds SQLite's date functions.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(CivilTime.utcText(millisecondsSince1970: millisecondsSince1970)))
    }

    /// Decodes a text in one of SQLite's date formats (UTC unless it has a time
    /// zone), or a number of seconds since 1970 (a Unix timestamp). For Julian
    /// day numbers, use ``init(julianDay:)``.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let int64): return Date(timeIntervalSince1970: TimeInterval(int64))
        case .double(let double): return double.isFinite ? Date(timeIntervalSince1970: double) : nil
        case .string: return DatabaseDateComponents.fromDatabaseValue(dbValue).flatMap(Date.init(databaseDateComponents:))
        default: return nil
        }
    }

    /// Reads a date text column, or a Unix timestamp.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER, SQLITE_FLOAT:
            let seconds = sqlite3_column_double(sqliteStatement, index)
            guard seconds.isFinite else { return nil }
            self.init(timeIntervalSince1970: seconds)
        case SQLITE_TEXT:
            guard let components = DatabaseDateComponents(sqliteStatement: sqliteStatement, index: index),
                  let date = Date(databaseDateComponents: components) else { return nil }
            self = date
        default:
            return nil
        }
    }

    /// Creates a date from a [Julian day number](https://en.wikipedia.org/wiki/Julian_day),
    /// such as SQLite's `julianday()` returns; nil if it is not finite.
    public init?(julianDay: Double) {
        guard julianDay.isFinite else { return nil }
        // Julian day 2440587.5 is 1970-01-01 00:00:00 UTC.
        self.init(timeIntervalSince1970: (julianDay - 2440587.5) * 86400)
    }

    /// A date from components that include a day; the time is UTC unless the
    /// components carry a time zone.
    init?(databaseDateComponents: DatabaseDateComponents) {
        let c = databaseDateComponents.dateComponents
        guard let year = c.year, let month = c.month, let day = c.day else { return nil }
        let days = CivilTime.daysSince1970(year: year, month: month, day: day)
        var seconds = Double(days * 86400 + (c.hour ?? 0) * 3600 + (c.minute ?? 0) * 60 + (c.second ?? 0))
        seconds += Double(c.nanosecond ?? 0) / 1e9
        seconds -= Double(c.timeZone?.secondsFromGMT() ?? 0)
        self.init(timeIntervalSince1970: seconds)
    }

    var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}

/// Conversions between days since 1970 and proleptic Gregorian dates.
enum CivilTime {
    /// Days from 1970-01-01 to the given date (negative before).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Count years from March, so that the leap day ends a year.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a number of days since 1970-01-01.
    static func date(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// "YYYY-MM-DD HH:MM:SS.SSS" in UTC.
    static func utcText(millisecondsSince1970 ms: Int64) -> String {
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (year, month, day) = date(daysSince1970: Int(days))
        let ms = Int(msOfDay)
        var bytes = [UInt8]()
        bytes.reserveCapacity(23)
        func append(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var value = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        // Years outside 0000-9999 do not fit SQLite's format: write them in
        // full, with their sign, rather than wrongly.
        if (0...9999).contains(year) {
            append(year, 4)
        } else {
            bytes.append(contentsOf: String(year).utf8)
        }
        bytes.append(UInt8(ascii: "-"))
        append(month, 2); bytes.append(UInt8(ascii: "-"))
        append(day, 2); bytes.append(UInt8(ascii: " "))
        append(ms / 3_600_000, 2); bytes.append(UInt8(ascii: ":"))
        append(ms / 60_000 % 60, 2); bytes.append(UInt8(ascii: ":"))
        append(ms / 1000 % 60, 2); bytes.append(UInt8(ascii: "."))
        append(ms % 1000, 3)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let quotient = a / b
        let remainder = a % b
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }
}
