import Foundation

/// How an `Encodable` ``EncodableRecord`` encodes its `Data` properties.
///
/// ```swift
/// struct Player: EncodableRecord, Encodable {
///     static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
///         .text
///     }
///     var jsonData: Data   // stored as text: the bytes must be valid UTF-8
/// }
/// ```
public enum DatabaseDataEncodingStrategy: Sendable {
    /// Stores a blob.
    case deferredToData

    /// Stores a text; data that is not valid UTF-8 does not encode.
    case text

    /// Stores what your function returns (NULL for nil).
    case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)

    /// The database value of `data`.
    ///
    /// - throws: An `EncodingError` for `.text` and bytes that are not UTF-8.
    func encode(_ data: Data, codingPath: [any CodingKey]) throws -> DatabaseValue {
        switch self {
        case .deferredToData:
            return data.databaseValue
        case .text:
            guard let string = String(data: data, encoding: .utf8) else {
                throw EncodingError.invalidValue(data, EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "data that is not valid UTF-8 cannot be stored as text"))
            }
            return string.databaseValue
        case .custom(let encode):
            return encode(data)?.databaseValue ?? .null
        }
    }
}
