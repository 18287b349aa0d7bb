import CSQLCipher
import Foundation

/// How a `Decodable` ``FetchableRecord`` decodes its `Date` properties.
///
/// ```swift
/// struct Player: FetchableRecord, Decodable {
///     static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
///         .timeIntervalSince1970
///     }
///     var registrationDate: Date   // decoded from a Unix timestamp
/// }
/// ```
public enum DatabaseDateDecodingStrategy: @unchecked Sendable {
    // @unchecked: `DateFormatter` is not Sendable, and `.formatted` holds one.
    // Formatters are only read here.

    /// Decodes as `Date` does: a number of seconds since 1970, or a text in
    /// one of SQLite's formats (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM`,
    /// `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM:SS.SSS`, and the same with
    /// `T` between date and time), in UTC unless the text has a time zone.
    case deferredToDate

    /// Decodes a number of seconds since midnight UTC, January 1st, 2001.
    case timeIntervalSinceReferenceDate

    /// Decodes a number of seconds since midnight UTC, January 1st, 1970.
    case timeIntervalSince1970

    /// Decodes a number of milliseconds since midnight UTC, January 1st, 1970.
    case millisecondsSince1970

    /// Decodes an ISO 8601 text such as `2024-05-06T07:08:09Z`.
    case iso8601

    /// Decodes a text with the formatter.
    case formatted(DateFormatter)

    /// Decodes with your function, which returns nil for a value it cannot
    /// decode (a decoding error).
    case custom(@Sendable (DatabaseValue) -> Date?)

    /// The date at a valid index of `row`, not NULL; nil if it does not
    /// decode.
    func decode(_ row: Row, atIndex index: Int) -> Date? {
        switch self {
        case .deferredToDate:
            if let sqliteStatement = row.sqliteStatement {
                return Date.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index))
            }
            return Date.fromDatabaseValue(row.databaseValue(atIndex: index))
        case .timeIntervalSinceReferenceDate:
            return Self.seconds(row, index).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .timeIntervalSince1970:
            return Self.seconds(row, index).map { Date(timeIntervalSince1970: $0) }
        case .millisecondsSince1970:
            return Self.seconds(row, index).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            return String.fromDatabaseValue(row.databaseValue(atIndex: index)).flatMap(Self.iso8601Date)
        case .formatted(let formatter):
            return String.fromDatabaseValue(row.databaseValue(atIndex: index)).flatMap { formatter.date(from: $0) }
        case .custom(let decode):
            return decode(row.databaseValue(atIndex: index))
        }
    }

    /// A number read as a `Double` property reads it.
    private static func seconds(_ row: Row, _ index: Int) -> Double? {
        if let sqliteStatement = row.sqliteStatement {
            return Double.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index))
        }
        return Double.fromDatabaseValue(row.databaseValue(atIndex: index))
    }

    /// An internet date and time (RFC 3339), as `ISO8601DateFormatter` with
    /// `.withInternetDateTime` reads it.
    static func iso8601Date(_ string: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(string)
    }
}
