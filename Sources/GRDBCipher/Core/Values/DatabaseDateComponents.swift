import CSQLCipher
import Foundation

/// Date components stored in one of SQLite's date and time text formats.
///
/// It reads the formats GRDB reads (a date, a time or both, with a `T` or a
/// space, optional seconds and fraction, an optional `Z` or `±HH:MM` time zone;
/// a fraction keeps its milliseconds) and writes the format you choose.
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
    /// (one for month and day), and nanoseconds are rounded to milliseconds
    /// (never up to "1000", which no date parser would read back: GRDB writes it).
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

/// The value with zeros in front, as C's `%0Nd` writes it: a minus sign
/// counts in the width (-5 is "-005" in width 4).
private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    let padding = String(repeating: "0", count: max(0, width - sign.count - digits.count))
    return sign + padding + digits
}

/// Parses SQLite's date and time formats from UTF-8 bytes, without Foundation
/// formatters (they are slow and locale-sensitive), accepting what GRDB
/// accepts: values are not range-checked ("2009-13-45", "24:00": a date rolls
/// them over), fractions keep milliseconds, and time zones are `Z` or `±HH:MM`.
enum DateParser {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> DatabaseDateComponents? {
        // "HH:MM" is the shortest text; the fifth byte tells a date from a time.
        guard bytes.count >= 5 else { return nil }
        var scanner = ByteScanner(bytes: bytes)
        var components = DateComponents()
        let format: DatabaseDateComponents.Format
        if bytes[4] == UInt8(ascii: "-") {
            guard let year = scanner.digits(4), scanner.skip("-"),
                  let month = scanner.digits(2), scanner.skip("-"),
                  let day = scanner.digits(2) else { return nil }
            components.year = year
            components.month = month
            components.day = day
            if scanner.isAtEnd {
                format = .YMD
            } else {
                guard scanner.skip(" ") || scanner.skip("T"),
                      let timeFormat = scanTime(&scanner, into: &components) else { return nil }
                switch timeFormat {
                case .HM: format = .YMD_HM
                case .HMS: format = .YMD_HMS
                default: format = .YMD_HMSS
                }
            }
        } else if bytes[2] == UInt8(ascii: ":") {
            guard let timeFormat = scanTime(&scanner, into: &components) else { return nil }
            format = timeFormat
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        return DatabaseDateComponents(components, format: format)
    }

    /// Scans HH:MM[:SS[.fraction]], each part optionally followed by a time
    /// zone, and returns the time format it matches (`.HM`, `.HMS`, `.HMSS`).
    /// The caller checks that nothing follows.
    private static func scanTime(
        _ scanner: inout ByteScanner, into components: inout DateComponents) -> DatabaseDateComponents.Format?
    {
        guard let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2) else { return nil }
        components.hour = hour
        components.minute = minute
        if scanner.isAtEnd || scanTimeZone(&scanner, into: &components) { return .HM }
        guard scanner.skip(":"), let second = scanner.digits(2) else { return nil }
        components.second = second
        if scanner.isAtEnd || scanTimeZone(&scanner, into: &components) { return .HMS }
        guard scanner.skip(".") else { return nil }
        // One to three significant digits; a time zone may end the fraction
        // after each of them. Digits past the third are read and dropped.
        var fraction = 0
        var unit = 1_000_000_000
        for position in 1...3 {
            guard let digit = scanner.digit() else { return nil }
            fraction = fraction * 10 + digit
            unit /= 10
            if position < 3, scanner.isAtEnd || scanTimeZone(&scanner, into: &components) {
                components.nanosecond = fraction * unit
                return .HMSS
            }
        }
        while scanner.digit() != nil {}
        _ = scanTimeZone(&scanner, into: &components)
        components.nanosecond = fraction * unit
        return .HMSS
    }

    /// Scans "Z" or "±HH:MM" into the components' time zone; an offset that
    /// Foundation refuses (over 18 hours) leaves no time zone, which reads as
    /// UTC. Returns false, possibly after reading some bytes, when no time
    /// zone is found.
    private static func scanTimeZone(_ scanner: inout ByteScanner, into components: inout DateComponents) -> Bool {
        if scanner.skip("Z") {
            components.timeZone = TimeZone(secondsFromGMT: 0)
            return true
        }
        // After a failed "+", "-" is tried where the scan stopped.
        if scanner.skip("+"), let offset = scanOffset(&scanner) {
            components.timeZone = TimeZone(secondsFromGMT: offset)
            return true
        }
        if scanner.skip("-"), let offset = scanOffset(&scanner) {
            components.timeZone = TimeZone(secondsFromGMT: -offset)
            return true
        }
        return false
    }

    /// Scans "HH:MM" and returns it in seconds; any two digits are accepted.
    private static func scanOffset(_ scanner: inout ByteScanner) -> Int? {
        guard let hours = scanner.digits(2), scanner.skip(":"), let minutes = scanner.digits(2) else { return nil }
        return hours * 3600 + minutes * 60
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
