import CSQLCipher
import Foundation

extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as "YYYY-MM-DD HH:MM:SS.SSS" in UTC, rounded to the millisecond:
    /// it sorts, compares with `CURRENT_TIMESTAMP` and feeds SQLite's date functions.
    /// Dates before 1582-10-15 are written in the Julian calendar, as GRDB writes them.
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
    /// such as SQLite's `julianday()` returns, precise to the millisecond (later
    /// digits are dropped, as GRDB drops them). Nil if it is not finite or out
    /// of range (GRDB traps).
    ///
    /// Before 1582-10-15, SQLite counts Gregorian days and Foundation's calendar
    /// Julian ones: the date has the day of SQLite's date, read in the Julian
    /// calendar, as in GRDB.
    public init?(julianDay: Double) {
        let milliseconds = (julianDay * 86_400_000).rounded(.towardZero)
        guard milliseconds.isFinite, abs(milliseconds) < 9e18 else { return nil }
        // Julian day 2440587.5 is 1970-01-01 00:00:00 UTC.
        let (days, millisecondsOfDay) = CivilTime.floorDivide(Int64(milliseconds) - 210_866_760_000_000, 86_400_000)
        let (year, month, day) = CivilTime.gregorianDate(daysSince1970: Int(days))
        let calendarDays = CivilTime.daysSince1970(year: year, month: month, day: day)
        self.init(timeIntervalSince1970: Double(calendarDays) * 86400 + Double(millisecondsOfDay) / 1000)
    }

    /// A date from components that include a day; the time is UTC unless the
    /// components carry a time zone. Out-of-range components roll over
    /// ("2009-13-45" is 2010-02-14, "24:00" the next day), as in GRDB.
    init?(databaseDateComponents: DatabaseDateComponents) {
        let c = databaseDateComponents.dateComponents
        guard let year = c.year, let month = c.month, let day = c.day else { return nil }
        let days = CivilTime.daysSince1970(year: year, month: month, day: day)
        // Whole seconds since 2001, Foundation's reference date, exactly, then
        // the fraction: one rounding, as Foundation's calendar makes the date
        // GRDB reads (a detour through 1970 rounds twice, tens of
        // nanoseconds off).
        let wholeSeconds = (days - 11_323) * 86400 + (c.hour ?? 0) * 3600 + (c.minute ?? 0) * 60 + (c.second ?? 0)
            - (c.timeZone?.secondsFromGMT() ?? 0)
        self.init(timeIntervalSinceReferenceDate: Double(wholeSeconds) + Double(c.nanosecond ?? 0) / 1e9)
    }

    /// The date in whole milliseconds, rounded half up, as GRDB's date
    /// formatter rounds it.
    var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000 + 0.5).rounded(.down))
    }
}
