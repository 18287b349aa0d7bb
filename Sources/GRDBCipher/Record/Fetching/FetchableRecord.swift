import Foundation

/// A type that can decode itself from a database row.
///
/// Implement ``init(row:)``, or adopt `Decodable` and get it for free:
///
/// ```swift
/// struct Player: FetchableRecord, Decodable {
///     var name: String
///     var score: Int
/// }
///
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
///
/// The static properties and methods below only matter to `Decodable`
/// records that use the default ``init(row:)``: they tell how columns map to
/// coding keys and how `Data`, `Date` and JSON values are decoded.
public protocol FetchableRecord {
    /// Creates a record from `row`.
    ///
    /// A cursor reuses the same row for every element: keep `row.copy()`
    /// if you need the row itself later.
    ///
    /// - throws: An error if the record cannot be decoded from the row.
    init(row: Row) throws

    /// Contextual information given to `Decodable.init(from:)` as the
    /// decoder's `userInfo`. Declare it as a computed
    /// `static var databaseDecodingUserInfo: [CodingUserInfoKey: Any]`.
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The `JSONDecoder` for the values of `column` that are stored as JSON
    /// (arrays, dictionaries, nested structs).
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// How the `Data` properties of `column` decode.
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

    /// How the `Date` properties of `column` decode.
    ///
    /// ```swift
    /// struct Player: FetchableRecord, Decodable {
    ///     static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
    ///         .timeIntervalSince1970
    ///     }
    ///     var creationDate: Date   // decoded from a Unix timestamp
    /// }
    /// ```
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

    /// How column names map to coding keys.
    ///
    /// ```swift
    /// struct Player: FetchableRecord, Decodable {
    ///     static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    ///     var playerID: String   // decoded from the player_id column
    /// }
    /// ```
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }
}

extension FetchableRecord {
    /// An empty dictionary.
    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] {
        [:]
    }

    /// A `JSONDecoder` whose `dataDecodingStrategy` is `.base64`,
    /// `dateDecodingStrategy` is `.millisecondsSince1970`,
    /// `nonConformingFloatDecodingStrategy` is `.throw`, and `userInfo` is
    /// ``databaseDecodingUserInfo``.
    public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        decoder.userInfo = CodingUserInfo.sendable(databaseDecodingUserInfo)
        return decoder
    }

    /// ``DatabaseDataDecodingStrategy/deferredToData``.
    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        .deferredToData
    }

    /// ``DatabaseDateDecodingStrategy/deferredToDate``.
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .deferredToDate
    }

    /// ``DatabaseColumnDecodingStrategy/useDefaultKeys``.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
        .useDefaultKeys
    }
}
