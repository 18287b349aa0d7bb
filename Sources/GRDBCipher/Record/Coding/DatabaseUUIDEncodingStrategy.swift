import Foundation

/// How an `Encodable` ``EncodableRecord`` encodes its `UUID` properties.
///
/// ```swift
/// struct Player: EncodableRecord, Encodable {
///     static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
///         .uppercaseString
///     }
///     var uuid: UUID   // stored as "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
/// }
/// ```
///
/// Decoding needs no strategy: a `UUID` decodes from a 16-byte blob and
/// from a text in either case.
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// Stores a 16-byte blob, as `UUID` does.
    case deferredToUUID

    /// Stores an uppercase text such as "E621E1F8-C36C-495A-93FC-0C247A3E6E5F".
    case uppercaseString

    /// Stores a lowercase text such as "e621e1f8-c36c-495a-93fc-0c247a3e6e5f".
    case lowercaseString

    /// The database value of `uuid`.
    func encode(_ uuid: UUID) -> DatabaseValue {
        switch self {
        case .deferredToUUID:
            return uuid.databaseValue
        case .uppercaseString:
            return uuid.uuidString.databaseValue
        case .lowercaseString:
            return uuid.uuidString.lowercased().databaseValue
        }
    }
}
