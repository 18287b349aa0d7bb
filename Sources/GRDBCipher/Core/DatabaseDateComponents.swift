import CSQLCipher
import Foundation

/// Date components stored in one of SQLite's date and time text formats.
///
/// It reads every format that SQLite's date functions read (with a `T` or a
/// space, optional seconds and fraction, an optional `Z` or `±HH:MM` time zone)
/// and writes the format you choose.
///
/// ```swift
/// var components = DateComponents()
/// components.year = 1973; components.month = 9; components.day = 18
/// try db.execute(sql: "INSERT INTO player (birthDate) VALUES (?)",
///                arguments: [DatabaseDateComponents(components, format: .YMD)])  // "1973-09-18"
/// ```
public struct DatabaseDateComponents: Hashable, Sendable, DatabaseValueConvertible, StatementColumnConvertible {
    /// The text formats of dates and times.
    public enum Format: String, Sendable, CaseIterable {
        /// "YYYY-MM-DD"
        case YMD = "yyyy-MM-dd"
        /// "YYYY-MM-DD HH:MM"
        case YMD_HM = "yyyy-MM-dd HH:mm"
        /// "YYYY-MM-DD HH:MM:SS"
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"
        /// "YYYY-MM-DD HH:MM:SS.SSS"
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"
        /// "HH:MM"
        case HM = "HH:mm"
        /// "HH:MM:SS"
        case HMS = "HH:mm:ss"
        /// "HH:MM:SS.SSS"
        case HMSS = "HH:mm:ss.SSS"

        var hasDate: Bool {
            switch self {
            case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS: return true
            case .HM, .HMS, .HMSS: return false
            }
        }
    }

    /// The date components. Components that the format does not hold are nil.
    public let dateComponents: DateComponents

    /// The format found in the database, or the format used to store.
    public let format: Format

    /// Creates date components that store in the given format.
    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }

    /// The components as text in their format; missing components are zero
    /// (one for month and day), and nanoseconds are rounded to milliseconds.
    public var databaseValue: DatabaseValue {
        let c = dateComponents
        var text = ""
        if format.hasDate {
            text = pad(c.year ?? 0, 4) + "-" + pad(c.month ?? 1, 2) + "-" + pad(c.day ?? 1, 2)
            if format == .YMD { return DatabaseValue(storage: .string(text)) }
            text += " "
        }
        text += pad(c.hour ?? 0, 2) + ":" + pad(c.minute ?? 0, 2)
        switch format {
        case .YMD_HMS, .HMS:
            text += ":" + pad(c.second ?? 0, 2)
        case .YMD_HMSS, .HMSS:
            // Rounded to the nearest millisecond, as GRDB does, but never to
            // "1000", which no date parser would read back.
            let milliseconds = min(999, Int((Double(c.nanosecond ?? 0) / 1_000_000).rounded()))
            text += ":" + pad(c.second ?? 0, 2) + "." + pad(milliseconds, 3)
        default:
            break
        }
        return DatabaseValue(storage: .string(text))
    }

    /// Decodes a text in one of SQLite's date and time formats.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        guard case .string(var string) = dbValue.storage else { return nil }
        return string.withUTF8 { DateParser.parse($0) }
    }

    /// Reads a text column in one of SQLite's date and time formats.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
              let text = sqlite3_column_text(sqliteStatement, index) else { return nil }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        guard let components = DateParser.parse(UnsafeBufferPointer(start: text, count: count)) else { return nil }
        self = components
    }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let padding = String(repeating: "0", count: max(0, width - digits.count))
    return (value < 0 ? "-" : "") + padding + digits
}

/// Parses SQLite's date and time formats from UTF-8 bytes, without Foundation
/// formatters (they are slow and locale-sensitive).
enum DateParser {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> DatabaseDateComponents? {
        var scanner = ByteScanner(bytes: bytes)
        var components = DateComponents()
        let format: DatabaseDateComponents.Format
        if bytes.count >= 5, bytes[2] == UInt8(ascii: ":") {
            guard let timeFormat = scanTime(&scanner, into: &components) else { return nil }
            format = timeFormat == .YMD_HM ? .HM : (timeFormat == .YMD_HMS ? .HMS : .HMSS)
        } else {
            guard let year = scanner.digits(4), scanner.skip("-"),
                  let month = scanner.digits(2), scanner.skip("-"),
                  let day = scanner.digits(2),
                  (1...12).contains(month), (1...31).contains(day) else { return nil }
            components.year = year
            components.month = month
            components.day = day
            if scanner.isAtEnd {
                return DatabaseDateComponents(components, format: .YMD)
            }
            guard scanner.skip(" ") || scanner.skip("T"),
                  let timeFormat = scanTime(&scanner, into: &components) else { return nil }
            format = timeFormat
        }
        if !scanner.isAtEnd {
            guard let offset = scanTimeZone(&scanner), scanner.isAtEnd else { return nil }
            components.timeZone = TimeZone(secondsFromGMT: offset)
        }
        return DatabaseDateComponents(components, format: format)
    }

    /// Scans HH:MM[:SS[.fraction]] and returns the date-and-time format it matches.
    private static func scanTime(
        _ scanner: inout ByteScanner, into components: inout DateComponents) -> DatabaseDateComponents.Format?
    {
        guard let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2),
              hour < 24, minute < 60 else { return nil }
        components.hour = hour
        components.minute = minute
        guard scanner.skip(":") else { return .YMD_HM }
        guard let second = scanner.digits(2), second < 60 else { return nil }
        components.second = second
        guard scanner.skip(".") else { return .YMD_HMS }
        // Any number of fraction digits; nanosecond precision is kept.
        var nanoseconds = 0
        var scale = 100_000_000
        var count = 0
        while let digit = scanner.digit() {
            nanoseconds += digit * scale
            scale /= 10
            count += 1
        }
        guard count > 0 else { return nil }
        components.nanosecond = nanoseconds
        return .YMD_HMSS
    }

    /// Scans "Z" or "±HH:MM" (also "±HHMM"), and returns the offset in seconds.
    private static func scanTimeZone(_ scanner: inout ByteScanner) -> Int? {
        if scanner.skip("Z") { return 0 }
        let sign: Int
        if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
        guard let hours = scanner.digits(2) else { return nil }
        _ = scanner.skip(":")
        guard let minutes = scanner.digits(2), hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}

struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    mutating func digit() -> Int? {
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        position += 1
        return Int(byte - UInt8(ascii: "0"))
    }

    mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
