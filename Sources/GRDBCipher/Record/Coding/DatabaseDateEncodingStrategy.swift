import Foundation

/// How an `Encodable` ``EncodableRecord`` encodes its `Date` properties.
///
/// ```swift
/// struct Player: EncodableRecord, Encodable {
///     static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
///         .timeIntervalSince1970
///     }
///     var creationDate: Date   // stored as a Unix timestamp
/// }
/// ```
public enum DatabaseDateEncodingStrategy: @unchecked Sendable {
    // @unchecked: `DateFormatter` is not Sendable, and `.formatted` holds one.
    // Formatters are only read here.

    /// Stores a text `YYYY-MM-DD HH:MM:SS.SSS` in UTC, as `Date` does.
    case deferredToDate

    /// Stores a real: seconds since midnight UTC, January 1st, 2001.
    case timeIntervalSinceReferenceDate

    /// Stores a real: seconds since midnight UTC, January 1st, 1970.
    case timeIntervalSince1970

    /// Stores an integer: whole seconds since midnight UTC, January 1st,
    /// 1970 (rounded down).
    case secondsSince1970

    /// Stores an integer: whole milliseconds since midnight UTC, January
    /// 1st, 1970 (rounded down).
    case millisecondsSince1970

    /// Stores an ISO 8601 text such as `2024-05-06T07:08:09Z`.
    case iso8601

    /// Stores the text of the formatter.
    case formatted(DateFormatter)

    /// Stores what your function returns (NULL for nil).
    case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)

    /// The database value of `date`.
    func encode(_ date: Date) -> DatabaseValue {
        switch self {
        case .deferredToDate:
            return date.databaseValue
        case .timeIntervalSinceReferenceDate:
            return date.timeIntervalSinceReferenceDate.databaseValue
        case .timeIntervalSince1970:
            return date.timeIntervalSince1970.databaseValue
        case .secondsSince1970:
            return Int64((date.timeIntervalSince1970).rounded(.down)).databaseValue
        case .millisecondsSince1970:
            return Int64((date.timeIntervalSince1970 * 1000).rounded(.down)).databaseValue
        case .iso8601:
            return date.formatted(Date.ISO8601FormatStyle()).databaseValue
        case .formatted(let formatter):
            return formatter.string(from: date).databaseValue
        case .custom(let encode):
            return encode(date)?.databaseValue ?? .null
        }
    }
}
