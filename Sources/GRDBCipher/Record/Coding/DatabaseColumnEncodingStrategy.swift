/// How an `Encodable` ``EncodableRecord`` names the column of each coding key.
///
/// ```swift
/// struct Player: EncodableRecord, Encodable {
///     static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
///     var playerID: String   // stored in the player_id column
/// }
/// ```
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// The column is the key's name.
    case useDefaultKeys

    /// The column is the key's name in snake case, as
    /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` converts keys:
    /// `player_id` for `playerID`, `my_url_property` for `myURLProperty`.
    case convertToSnakeCase

    /// The column is what your function returns for the key.
    case custom(@Sendable (any CodingKey) -> String)

    /// The column of `key`.
    func column(forKey key: some CodingKey) -> String {
        switch self {
        case .useDefaultKeys:
            return key.stringValue
        case .convertToSnakeCase:
            return SnakeCase.snakeCased(key.stringValue)
        case .custom(let column):
            return column(key)
        }
    }
}
