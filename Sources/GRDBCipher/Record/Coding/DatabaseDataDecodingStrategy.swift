import CSQLCipher
import Foundation

/// How a `Decodable` ``FetchableRecord`` decodes its `Data` properties.
///
/// ```swift
/// struct Player: FetchableRecord, Decodable {
///     static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
///         .custom { dbValue in
///             String.fromDatabaseValue(dbValue).flatMap { Data(base64Encoded: $0) }
///         }
///     }
///     var myData: Data   // decoded from a base64 text
/// }
/// ```
public enum DatabaseDataDecodingStrategy: Sendable {
    /// Decodes a blob, or the bytes of a text, as `Data` does.
    case deferredToData

    /// Decodes with your function, which returns nil for a value it cannot
    /// decode (a decoding error).
    case custom(@Sendable (DatabaseValue) -> Data?)

    /// The data at a valid index of `row`, not NULL; nil if it does not
    /// decode.
    func decode(_ row: Row, atIndex index: Int) -> Data? {
        switch self {
        case .deferredToData:
            if let sqliteStatement = row.sqliteStatement {
                return Data.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index))
            }
            return Data.fromDatabaseValue(row.databaseValue(atIndex: index))
        case .custom(let decode):
            return decode(row.databaseValue(atIndex: index))
        }
    }
}
