import Foundation

/// Date components encode as their database text ("2024-03-01 14:30"), and
/// decode from any text that the database accepts, so a record that holds
/// them reads and writes the same column through `Codable`.
///
/// ```swift
/// let json = try JSONEncoder().encode(DatabaseDateComponents(components, format: .YMD))
/// // "\"1973-09-18\""
/// ```
extension DatabaseDateComponents: Codable {
    /// Decodes a single text in one of SQLite's date and time formats.
    ///
    /// - throws: `DecodingError.dataCorrupted` if the text is not one of them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let components = DatabaseDateComponents.fromDatabaseValue(DatabaseValue(storage: .string(text))) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "not a date or time in one of SQLite's formats")
        }
        self = components
    }

    /// Encodes a single text, the one ``databaseValue`` stores.
    public func encode(to encoder: any Encoder) throws {
        guard case .string(let text) = databaseValue.storage else {
            preconditionFailure("date components are always stored as a text")
        }
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
