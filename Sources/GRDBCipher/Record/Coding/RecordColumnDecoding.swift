import CSQLCipher
import Foundation

/// How the `Decodable` support reads one column of a row for a record type:
/// the fast path for values that read themselves from SQLite, the record's
/// strategies for `Data` and `Date`, JSON for the rest.
enum RecordColumnDecoding<Record: FetchableRecord> {
    /// A value read straight from the statement (or from a copied row's
    /// value), with no ``DatabaseValue`` in between.
    @inline(__always)
    static func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, row: Row, index: Int) throws -> Value
    {
        try FastColumnDecoding.decode(type, row: row, index: index)
    }

    /// A value that a column holds by itself: `Data` and `Date` through the
    /// record's strategies for `column`, then any ``DatabaseValueConvertible``
    /// type. Nil when `T` is none of them and must decode with `Decodable`.
    static func decodeColumnValue<T>(_ type: T.Type, row: Row, index: Int, column: String) throws -> T? {
        if T.self == Data.self {
            if !row.hasNull(atIndex: index),
               let data = Record.databaseDataDecodingStrategy(for: column).decode(row, atIndex: index)
            {
                return (data as! T)
            }
            throw mismatch(Data.self, row: row, index: index)
        }
        if T.self == Date.self {
            if !row.hasNull(atIndex: index),
               let date = Record.databaseDateDecodingStrategy(for: column).decode(row, atIndex: index)
            {
                return (date as! T)
            }
            throw mismatch(Date.self, row: row, index: index)
        }
        if let fastType = T.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
            let value = try decode(fastType, row: row, index: index) as! T
            return value
        }
        if let valueType = T.self as? any DatabaseValueConvertible.Type {
            let value = try decodeDatabaseValue(valueType, row: row, index: index) as! T
            return value
        }
        return nil
    }

    private static func decodeDatabaseValue<Value: DatabaseValueConvertible>(
        _ type: Value.Type, row: Row, index: Int) throws -> Value
    {
        let dbValue = row.databaseValue(atIndex: index)
        guard let value = Value.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Value.self, dbValue: dbValue, row: row, index: index)
        }
        return value
    }

    /// A value decoded from the JSON text (or blob) of a column.
    ///
    /// - throws: A `DecodingError`: the column is NULL, or the JSON does not
    ///   decode (see ``hidingValues(_:row:codingPath:)``).
    static func decodeJSON<T: Decodable>(
        _ type: T.Type, row: Row, index: Int, key: String, codingPath: [any CodingKey]) throws -> T
    {
        try row.withUnsafeData(atUncheckedIndex: index) { data in
            guard let data else {
                throw DecodingError.valueNotFound(T.self, DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "column \(String(reflecting: key)) of \(Record.self) is NULL"))
            }
            do {
                return try Record.databaseJSONDecoder(for: key).decode(T.self, from: data)
            } catch let error as DecodingError {
                throw hidingValues(error, row: row, codingPath: codingPath)
            }
        }
    }

    /// The error with `codingPath` in front of its own, and, unless the
    /// connection makes statement arguments public, without the
    /// descriptions that can quote the value (a corrupt JSON text, an
    /// unknown enum raw value): column values may be secret.
    static func hidingValues(_ error: DecodingError, row: Row, codingPath: [any CodingKey]) -> DecodingError {
        let showsValues = row.statement?.database.configuration.publicStatementArguments ?? false
        switch error {
        case .dataCorrupted(let context):
            if showsValues {
                return .dataCorrupted(DecodingError.Context(
                    codingPath: codingPath + context.codingPath, debugDescription: context.debugDescription,
                    underlyingError: context.underlyingError))
            }
            return .dataCorrupted(DecodingError.Context(
                codingPath: codingPath + context.codingPath,
                debugDescription: "the value does not decode in \(Record.self) (value hidden: see Configuration.publicStatementArguments)"))
        case .typeMismatch(let type, let context):
            return .typeMismatch(type, context.prefixed(by: codingPath))
        case .valueNotFound(let type, let context):
            return .valueNotFound(type, context.prefixed(by: codingPath))
        case .keyNotFound(let key, let context):
            return .keyNotFound(key, context.prefixed(by: codingPath))
        @unknown default:
            return error
        }
    }

    /// The error for a value of `row` at `index` that `type` does not decode.
    static func mismatch(_ type: Any.Type, row: Row, index: Int) -> RowDecodingError {
        RowDecodingError.valueMismatch(
            type, dbValue: row.databaseValue(atIndex: index), row: row, index: index)
    }
}

extension DecodingError.Context {
    /// The context with `codingPath` in front of its own.
    fileprivate func prefixed(by codingPath: [any CodingKey]) -> DecodingError.Context {
        DecodingError.Context(
            codingPath: codingPath + self.codingPath, debugDescription: debugDescription,
            underlyingError: underlyingError)
    }
}

/// Thrown by a column decoder when a value asks for a keyed or unkeyed
/// container: the value must be decoded from JSON instead.
struct JSONRequiredError: Error {}

/// Values read straight from the statement (or from a copied row's value),
/// with no ``DatabaseValue`` in between, shared by the record decoders.
enum FastColumnDecoding {
    @inline(__always)
    static func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, row: Row, index: Int) throws -> Value
    {
        if let sqliteStatement = row.sqliteStatement {
            if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: index)) {
                return value
            }
        } else if let value = Value.fromDatabaseValue(row.databaseValue(atIndex: index)) {
            return value
        }
        throw RowDecodingError.valueMismatch(
            Value.self, dbValue: row.databaseValue(atIndex: index), row: row, index: index)
    }
}
