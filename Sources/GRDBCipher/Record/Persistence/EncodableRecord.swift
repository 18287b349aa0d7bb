import Foundation

/// A type that can encode itself into database columns.
///
/// Implement ``encode(to:)``, or adopt `Encodable` and get it for free:
///
/// ```swift
/// struct Player: EncodableRecord {
///     var id: Int64?
///     var name: String
///
///     func encode(to container: inout PersistenceContainer) {
///         container["id"] = id
///         container["name"] = name
///     }
/// }
/// ```
///
/// The static properties and methods below only matter to `Encodable`
/// records that use the default ``encode(to:)``: they tell how coding keys
/// map to columns and how `Data`, `Date`, `UUID` and JSON values are encoded.
public protocol EncodableRecord: SendableMetatype {
    /// Stores the record's values in the container, primary key columns
    /// included.
    ///
    /// Setting two values for one column (column names are
    /// case-insensitive) keeps the last one.
    ///
    /// - throws: An error if the record cannot be encoded.
    func encode(to container: inout PersistenceContainer) throws

    /// Contextual information given to `Encodable.encode(to:)` as the
    /// encoder's `userInfo`. Declare it as a computed
    /// `static var databaseEncodingUserInfo: [CodingUserInfoKey: Any]`.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The `JSONEncoder` for the values of `column` that are stored as JSON
    /// (arrays, dictionaries, nested structs).
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How the `Data` properties of `column` encode.
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How the `Date` properties of `column` encode.
    ///
    /// ```swift
    /// struct Player: EncodableRecord, Encodable {
    ///     static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
    ///         .timeIntervalSince1970
    ///     }
    ///     var creationDate: Date   // stored as a Unix timestamp
    /// }
    /// ```
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How the `UUID` properties of `column` encode.
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy

    /// How coding keys map to column names.
    ///
    /// ```swift
    /// struct Player: EncodableRecord, Encodable {
    ///     static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    ///     var playerID: String   // stored in the player_id column
    /// }
    /// ```
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }
}

extension EncodableRecord {
    /// An empty dictionary.
    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] {
        [:]
    }

    /// A `JSONEncoder` whose `dataEncodingStrategy` is `.base64`,
    /// `dateEncodingStrategy` is `.millisecondsSince1970`,
    /// `nonConformingFloatEncodingStrategy` is `.throw`, `outputFormatting`
    /// is `.sortedKeys` (so that equal values give equal JSON, which record
    /// comparison needs), and `userInfo` is ``databaseEncodingUserInfo``.
    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        encoder.userInfo = CodingUserInfo.sendable(databaseEncodingUserInfo)
        return encoder
    }

    /// ``DatabaseDataEncodingStrategy/deferredToData``.
    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        .deferredToData
    }

    /// ``DatabaseDateEncodingStrategy/deferredToDate``.
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .deferredToDate
    }

    /// ``DatabaseUUIDEncodingStrategy/deferredToUUID``.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .deferredToUUID
    }

    /// ``DatabaseColumnEncodingStrategy/useDefaultKeys``.
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy {
        .useDefaultKeys
    }
}

extension EncodableRecord {
    /// The columns and values that ``encode(to:)`` stores.
    ///
    /// ```swift
    /// let player = Player(id: 1, name: "Arthur")
    /// try player.databaseDictionary   // ["id": 1, "name": "Arthur"]
    /// ```
    ///
    /// - throws: The error of ``encode(to:)``.
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try PersistenceContainer(self)
            var dictionary: [String: DatabaseValue] = [:]
            dictionary.reserveCapacity(container.count)
            for (column, value) in container { dictionary[column] = value }
            return dictionary
        }
    }

    /// Whether this record and `record` store the same values in the same
    /// columns. False if either cannot be encoded.
    public func databaseEquals(_ record: Self) -> Bool {
        guard let mine = try? PersistenceContainer(self),
              let theirs = try? PersistenceContainer(record) else { return false }
        return mine.changes(from: theirs).isEmpty
    }

    /// The columns of this record whose value differs in `record`, with
    /// their value in `record`.
    ///
    /// `record` may be of another type: only the columns of this record
    /// count, and a column that `record` does not encode counts as NULL.
    ///
    /// ```swift
    /// let old = Player(id: 1, name: "Arthur", score: 100)
    /// let new = Player(id: 1, name: "Arthur", score: 200)
    /// try new.databaseChanges(from: old)   // ["score": 100]
    /// ```
    ///
    /// - throws: The error of ``encode(to:)`` of either record.
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        let changes = try PersistenceContainer(self).changes(from: PersistenceContainer(record))
        return Dictionary(changes, uniquingKeysWith: { first, _ in first })
    }

    /// Modifies the record with `modify` and returns the columns that
    /// changed, with their values before the change.
    ///
    /// ```swift
    /// var player = Player(id: 1, score: 1000, hasAward: false)
    /// let changes = try player.databaseChanges {
    ///     $0.score = 1000
    ///     $0.hasAward = true
    /// }
    /// changes["score"]     // nil (not changed)
    /// changes["hasAward"]  // false (the old value)
    /// ```
    ///
    /// - throws: The error of `modify` or of ``encode(to:)``.
    public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue] {
        let before = try PersistenceContainer(self)
        try modify(&self)
        let changes = try PersistenceContainer(self).changes(from: before)
        return Dictionary(changes, uniquingKeysWith: { first, _ in first })
    }
}
