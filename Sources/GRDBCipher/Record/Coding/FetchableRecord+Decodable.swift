extension FetchableRecord where Self: Decodable {
    /// Creates a record from `row` with its `Decodable` implementation.
    ///
    /// Each coding key reads the column of the same name (see
    /// ``databaseColumnDecodingStrategy``). Values that SQLite stores
    /// themselves (numbers, strings, `Date`, `Data`, `UUID`, `URL`,
    /// `Decimal`, enums with such raw values...) read their column;
    /// arrays, dictionaries and other nested values read the JSON of their
    /// column. A missing column decodes nil into an optional property, and
    /// throws otherwise.
    ///
    /// Columns are found once per statement: rows of the same statement
    /// reuse the column indexes that the first one found.
    ///
    /// - throws: A ``RowDecodingError`` for a missing column or a value of
    ///   the wrong type (it names the column and the record type, and shows
    ///   no value unless ``Configuration/publicStatementArguments`` is set),
    ///   or a `DecodingError` for a JSON value that does not decode.
    // Inlinable: specialized for the record type in the client module, the
    // decoder's type is known there, instead of looked up in the runtime's
    // metadata cache on every row (callgrind).
    @inlinable
    public init(row: Row) throws {
        self = try Self(from: RecordRowDecoder<Self>(row: row, codingPath: [], usesRecordStrategy: true))
    }
}

/// Decodes `Decodable` records from database rows.
///
/// ```swift
/// if let row = try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = 42") {
///     let player = try FetchableRecordDecoder().decode(Player.self, from: row)
/// }
/// ```
///
/// ``FetchableRecord/init(row:)`` does the same: you rarely need this type.
public final class FetchableRecordDecoder {
    /// Creates a decoder.
    public init() {}

    /// Decodes a record from a row, as its default
    /// ``FetchableRecord/init(row:)`` does.
    ///
    /// - throws: A ``RowDecodingError`` or a `DecodingError`.
    public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
        try T(from: RecordRowDecoder<T>(row: row, codingPath: [], usesRecordStrategy: true))
    }
}
