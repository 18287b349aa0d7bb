/// Conversions between days since 1970 and calendar dates, as GRDB makes them
/// through Foundation's Gregorian calendar and date formatter: the Gregorian
/// calendar from 1582-10-15 on and the Julian calendar before, so that a date
/// that a GRDB app stored reads back the same here, and the other way round.
///
/// SQLite's date functions use the Gregorian calendar for every year: the two
/// agree from 1582-10-15 on.
enum CivilTime {
    /// 1582-10-15, the first day of the Gregorian calendar, in days since 1970-01-01.
    static let gregorianStart = -141_427

    /// Days from 1970-01-01 to a date (negative before), in the calendar in
    /// use on that date. A month out of 1...12 moves the year, and a day past
    /// the month's end moves the month, as in Foundation's lenient calendar
    /// ("2009-13-45" is 2010-02-14).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let (extraYears, monthIndex) = floorDivide(month - 1, 12)
        let year = year + extraYears
        let month = monthIndex + 1
        // The calendar is chosen by the date as written, before its day rolls over.
        if (year, month, day) < (1582, 10, 15) {
            return julianDaysSince1970(year: year, month: month, day: day)
        }
        return gregorianDaysSince1970(year: year, month: month, day: day)
    }

    /// The date of a number of days since 1970-01-01, in the calendar in use
    /// on that day.
    static func date(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        days < gregorianStart ? julianDate(daysSince1970: days) : gregorianDate(daysSince1970: days)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar
    /// (month in 1...12; the day may exceed the month).
    static func gregorianDaysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Count years from March, so that the leap day ends a year.
        let y = month <= 2 ? year - 1 : year
        let (era, yearOfEra) = floorDivide(y, 400)
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a number of days since 1970-01-01.
    static func gregorianDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let (era, dayOfEra) = floorDivide(days + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        return marchBasedDate(year: yearOfEra + era * 400, dayOfYear: dayOfYear)
    }

    /// Days from 1970-01-01 to a date of the Julian calendar (month in 1...12;
    /// the day may exceed the month). Year 0 is 1 BC.
    static func julianDaysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Years count from March, in cycles of four whose last year ends with the leap day.
        let y = month <= 2 ? year - 1 : year
        let (cycle, yearOfCycle) = floorDivide(y, 4)
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        // 719_470 days separate 0000-03-01 (Julian) from 1970-01-01 (Gregorian).
        return cycle * 1461 + yearOfCycle * 365 + dayOfYear - 719_470
    }

    /// The Julian date of a number of days since 1970-01-01.
    static func julianDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let (cycle, dayOfCycle) = floorDivide(days + 719_470, 1461)
        let yearOfCycle = min(dayOfCycle / 365, 3)
        return marchBasedDate(year: cycle * 4 + yearOfCycle, dayOfYear: dayOfCycle - yearOfCycle * 365)
    }

    /// The date of the nth day (from 0) of a year that starts on March 1st.
    private static func marchBasedDate(year: Int, dayOfYear: Int) -> (year: Int, month: Int, day: Int) {
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (year + (month <= 2 ? 1 : 0), month, day)
    }

    /// "YYYY-MM-DD HH:MM:SS.SSS" in UTC, as GRDB's date formatter writes it:
    /// the calendar in use on that day, and the year of its era (1 BC is
    /// written "0001", as 1 AD is: such dates do not read back).
    static func utcText(millisecondsSince1970 ms: Int64) -> String {
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (year, month, day) = date(daysSince1970: Int(days))
        let ms = Int(msOfDay)
        var bytes = [UInt8]()
        bytes.reserveCapacity(23)
        // Writes a non-negative value with at least `width` digits.
        func append(_ value: Int, _ width: Int) {
            var divisor = 1
            var count = 1
            while count < width || value / divisor >= 10 {
                divisor *= 10
                count += 1
            }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        append(year > 0 ? year : 1 - year, 4)
        bytes.append(UInt8(ascii: "-"))
        append(month, 2); bytes.append(UInt8(ascii: "-"))
        append(day, 2); bytes.append(UInt8(ascii: " "))
        append(ms / 3_600_000, 2); bytes.append(UInt8(ascii: ":"))
        append(ms / 60_000 % 60, 2); bytes.append(UInt8(ascii: ":"))
        append(ms / 1000 % 60, 2); bytes.append(UInt8(ascii: "."))
        append(ms % 1000, 3)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The quotient rounded down, and a remainder in 0..<b (b > 0).
    static func floorDivide<T: BinaryInteger>(_ a: T, _ b: T) -> (T, T) {
        let quotient = a / b
        let remainder = a % b
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }
}
