import CSQLCipher
import Foundation

/// A type that can be stored in and read from a database column.
///
/// ```swift
/// struct Email: DatabaseValueConvertible {
///     var rawValue: String
///     var databaseValue: DatabaseValue { rawValue.databaseValue }
///     static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Email? {
///         String.fromDatabaseValue(dbValue).map(Email.init)
///     }
/// }
/// ```
public protocol DatabaseValueConvertible: SQLExpressible, StatementBinding {
    /// The value to store in the database.
    var databaseValue: DatabaseValue { get }

    /// Returns a value decoded from a database value, or nil if it cannot be
    /// decoded.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

    /// The value decoded from a column that the row does not have: nil
    /// (decoding fails) for every type but `Optional`, which decodes nil.
    /// Do not implement it: the default is what GRDB's rules need.
    static func fromMissingColumn() -> Self?

    /// The decoder of a `Decodable` value stored as JSON. Implement it to
    /// change the default strategies (see `DatabaseValueConvertible+Codable.swift`).
    static func databaseJSONDecoder() -> JSONDecoder

    /// The encoder of an `Encodable` value stored as JSON. Implement it to
    /// change the default strategies.
    ///
    /// ```swift
    /// struct Address: Codable, DatabaseValueConvertible {
    ///     static func databaseJSONEncoder() -> JSONEncoder {
    ///         let encoder = JSONEncoder()
    ///         encoder.keyEncodingStrategy = .convertToSnakeCase
    ///         return encoder
    ///     }
    /// }
    /// ```
    static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
    /// Binds ``databaseValue``.
    ///
    /// The numeric types and `Bool` bind themselves with one call, without
    /// building it. An implementation of your own must bind exactly what
    /// ``databaseValue`` is (other APIs bind that, and errors show it), and
    /// may be called more than once for one execution.
    /// ``Statement/execute(values:)`` uses it.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }

    /// Fails: a missing column does not decode, except into an optional.
    public static func fromMissingColumn() -> Self? {
        nil
    }
}

/// A type that reads itself straight from an SQLite statement column,
/// without building a ``DatabaseValue`` first: the fetch fast path.
public protocol StatementColumnConvertible {
    /// Reads the value from a non-NULL column of the current row, or returns
    /// nil if the column cannot be decoded (an integer overflow, for example).
    ///
    /// - parameters:
    ///   - sqliteStatement: A statement that has a current row.
    ///   - index: A valid column index whose value is not NULL.
    init?(sqliteStatement: SQLiteStatement, index: CInt)

    /// Reads a column of the current row: nil if it cannot be decoded.
    /// The default implementation returns nil for NULL and calls
    /// ``init(sqliteStatement:index:)`` otherwise; `Optional` reads NULL as nil.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?
}

/// A raw SQLite statement handle (`sqlite3_stmt *`).
public typealias SQLiteStatement = OpaquePointer

/// A raw SQLite connection handle (`sqlite3 *`).
public typealias SQLiteConnection = OpaquePointer

extension DatabaseValue {
    /// A description of the value that does not reveal its content, for
    /// decoding errors, which end up in logs: NULL, or the storage class.
    var storageDescription: String {
        switch storage {
        case .null: return "NULL"
        case .int64: return "<integer>"
        case .double: return "<real>"
        case .string: return "<text>"
        case .blob: return "<blob>"
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// NULL for nil, the wrapped value's database value otherwise.
    public var databaseValue: DatabaseValue {
        self?.databaseValue ?? .null
    }

    /// The decoded value when the wrapped type decodes it, else nil (as a
    /// successful `.some(nil)`) for NULL; returns nil when a non-NULL value
    /// cannot be decoded. As in GRDB, a wrapped type that decodes NULL
    /// itself (``DatabaseValue``) gets its value: `DatabaseValue?` reads
    /// NULL as `.some(.null)`.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
        if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(value) }
        return dbValue.isNull ? .some(nil) : nil
    }

    /// A missing column decodes as nil.
    public static func fromMissingColumn() -> Wrapped?? {
        .some(nil)
    }
}


extension StatementColumnConvertible {
    /// Reads a column of the current row: nil if the column cannot be decoded,
    /// including NULL for non-optional types.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            return nil
        }
        return Self(sqliteStatement: sqliteStatement, index: index)
    }
}

extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    /// Reads the wrapped value from a non-NULL column.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }

    /// Reads a column: `.some(nil)` for NULL, nil when a non-NULL value cannot be decoded.
    ///
    /// The wrapped type reads the column first, as in ``fromDatabaseValue(_:)``:
    /// a wrapped type that decodes NULL itself (an optional, in `Int??`)
    /// gets its value, so that `Int?.fetchOne` tells a NULL (`.some(nil)`)
    /// from no row (`nil`).
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Wrapped?? {
        if let value = Wrapped.fromStatement(sqliteStatement, atUncheckedIndex: index) {
            return .some(value)
        }
        return sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL ? .some(nil) : nil
    }
}
