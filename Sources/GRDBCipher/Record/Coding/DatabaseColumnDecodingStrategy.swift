/// How a `Decodable` ``FetchableRecord`` finds the column of each coding key.
///
/// ```swift
/// struct Player: FetchableRecord, Decodable {
///     static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
///     var playerID: Int   // decoded from the player_id column
/// }
/// ```
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// A key reads the column of the same name (compared case-insensitively).
    case useDefaultKeys

    /// A key reads the column whose snake-case name converts to it, as
    /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` converts keys:
    /// `player_id` for `playerId`.
    case convertFromSnakeCase

    /// A key reads the column that your function maps to it.
    case custom(@Sendable (String) -> any CodingKey)

    /// The coding key name of a column, or nil for the default strategy,
    /// where names are compared as they are.
    func keyName(forColumn column: String) -> String? {
        switch self {
        case .useDefaultKeys:
            return nil
        case .convertFromSnakeCase:
            return SnakeCase.camelCased(column)
        case .custom(let key):
            return key(column).stringValue
        }
    }
}
