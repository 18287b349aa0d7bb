import CSQLCipher
import Foundation

/// A value stored in a database table: NULL, an integer, a real, a text or a blob.
///
/// ```swift
/// let dbValue = try DatabaseValue.fetchOne(db, sql: "SELECT score FROM player")!
/// switch dbValue.storage {
/// case .null: print("NULL")
/// case .int64(let int64): print(int64)
/// case .double(let double): print(double)
/// case .string(let string): print(string)
/// case .blob(let data): print(data)
/// }
/// ```
public struct DatabaseValue: Hashable, Sendable, CustomStringConvertible {
    /// The storage classes of SQLite values.
    public enum Storage: Hashable, Sendable {
        /// The NULL value.
        case null
        /// A 64-bit signed integer.
        case int64(Int64)
        /// A 64-bit IEEE floating point number.
        case double(Double)
        /// A text.
        case string(String)
        /// A blob.
        case blob(Data)

        /// The value as `Int64`, `Double`, `String` or `Data`, or nil for NULL.
        public var value: (any DatabaseValueConvertible)? {
            switch self {
            case .null: return nil
            case .int64(let int64): return int64
            case .double(let double): return double
            case .string(let string): return string
            case .blob(let data): return data
            }
        }
    }

    /// The value, as one of SQLite's storage classes.
    public let storage: Storage

    /// The NULL value.
    ///
    /// It is not written `nil`: as in GRDB, `DatabaseValue` is no nil literal, so that
    /// `value == nil` in the query interface is `? IS NULL`, as GRDB generates it.
    public static let null = DatabaseValue(storage: .null)

    /// Whether the value is NULL.
    public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    /// Creates a value from a storage class.
    @inlinable
    public init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a value from any value, or nil if `value` is not
    /// ``DatabaseValueConvertible``.
    ///
    /// ```swift
    /// DatabaseValue(value: 42)        // 42
    /// DatabaseValue(value: NSNull())  // NULL
    /// DatabaseValue(value: [1, 2])    // nil: an array is not convertible
    /// ```
    public init?(value: Any) {
        guard let convertible = value as? any DatabaseValueConvertible else { return nil }
        self = convertible.databaseValue
    }

    /// Reads a column of the current row of a statement (`index` starts at 0).
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            storage = .string(String(unsafeColumnText: sqliteStatement, index: index))
        case SQLITE_BLOB:
            storage = .blob(Data(unsafeColumnBlob: sqliteStatement, index: index))
        default:
            storage = .null
        }
    }

    /// Reads a function argument.
    init(sqliteValue: OpaquePointer) {
        switch sqlite3_value_type(sqliteValue) {
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_value_int64(sqliteValue))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_value_double(sqliteValue))
        case SQLITE_TEXT:
            if let text = sqlite3_value_text(sqliteValue) {
                let count = Int(sqlite3_value_bytes(sqliteValue))
                storage = .string(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            } else {
                storage = .string("")
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(sqliteValue))
            if let bytes = sqlite3_value_blob(sqliteValue), count > 0 {
                storage = .blob(Data(bytes: bytes, count: count))
            } else {
                storage = .blob(Data())
            }
        default:
            storage = .null
        }
    }

    /// Binds the value to a statement parameter; returns SQLite's result code.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch storage {
        case .null:
            return sqlite3_bind_null(sqliteStatement, index)
        case .int64(let int64):
            return sqlite3_bind_int64(sqliteStatement, index, int64)
        case .double(let double):
            return sqlite3_bind_double(sqliteStatement, index, double)
        case .string(let string):
            // The UTF-8 bytes in place (a native string is contiguous), not a
            // NUL-terminated copy: SQLite copies them anyway.
            // A null pointer would bind NULL: an empty text binds a literal.
            if string.isEmpty { return sqlite3_bind_text(sqliteStatement, index, "", 0, grdbcipher_transient()) }
            var string = string
            return string.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    sqlite3_bind_text(sqliteStatement, index, $0.baseAddress, CInt(bytes.count), grdbcipher_transient())
                }
            }
        case .blob(let data):
            return data.withUnsafeBytes { buffer in
                // A zero-length blob binds as an empty blob, never as NULL.
                sqlite3_bind_blob(
                    sqliteStatement, index,
                    buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), CInt(buffer.count),
                    grdbcipher_transient())
            }
        }
    }

    /// Sets the value as the result of an SQL function.
    func setResult(of context: OpaquePointer?) {
        switch storage {
        case .null:
            sqlite3_result_null(context)
        case .int64(let int64):
            sqlite3_result_int64(context, int64)
        case .double(let double):
            sqlite3_result_double(context, double)
        case .string(let string):
            if string.isEmpty {
                sqlite3_result_text(context, "", 0, grdbcipher_transient())
                return
            }
            var string = string
            string.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    sqlite3_result_text(context, $0.baseAddress, CInt(bytes.count), grdbcipher_transient())
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { buffer in
                if buffer.isEmpty {
                    sqlite3_result_zeroblob(context, 0)
                } else {
                    sqlite3_result_blob(context, buffer.baseAddress, CInt(buffer.count), grdbcipher_transient())
                }
            }
        }
    }

    /// Values compare as SQLite compares them: an integer equals the real of the
    /// same value (`1 == 1.0`).
    public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.null, .null): return true
        case let (.int64(a), .int64(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.int64(a), .double(b)): return Double(exactly: a) == b
        case let (.double(a), .int64(b)): return a == Double(exactly: b)
        case let (.string(a), .string(b)): return a == b
        case let (.blob(a), .blob(b)): return a == b
        default: return false
        }
    }

    /// Hashes consistently with `==`: integral reals hash like integers.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .null:
            hasher.combine(0)
        case .int64(let int64):
            hasher.combine(1)
            hasher.combine(int64)
        case .double(let double):
            if let int64 = Int64(exactly: double) {
                hasher.combine(1)
                hasher.combine(int64)
            } else {
                hasher.combine(2)
                hasher.combine(double)
            }
        case .string(let string):
            hasher.combine(3)
            hasher.combine(string)
        case .blob(let data):
            hasher.combine(4)
            hasher.combine(data)
        }
    }

    /// The value as an SQL literal: `NULL`, `1`, `1.5`, `'it''s'`, `X'0A1B'`.
    var sqlLiteral: String {
        switch storage {
        case .null:
            return "NULL"
        case .int64(let int64):
            return String(int64)
        case .double(let double):
            return String(double)
        case .string(let string):
            return "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// The value as GRDB prints it: `NULL`, `1`, `1.5`, `"text"` (quoted and
    /// escaped as Swift prints strings), `Data(3 bytes)`.
    public var description: String {
        switch storage {
        case .string(let string):
            return String(reflecting: string)
        case .blob(let data):
            return "Data(\(data.description))"
        case .null, .int64, .double:
            return sqlLiteral
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    /// Returns itself.
    public var databaseValue: DatabaseValue { self }

    /// Returns the value itself.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
}

extension String {
    /// Reads a column as text (SQLite converts numbers), without an intermediate C string.
    @inlinable
    init(unsafeColumnText sqliteStatement: OpaquePointer, index: CInt) {
        guard let text = sqlite3_column_text(sqliteStatement, index) else {
            self = ""
            return
        }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        self = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Data {
    /// Reads a column as a blob; an empty blob reads as empty data.
    @inlinable
    init(unsafeColumnBlob sqliteStatement: OpaquePointer, index: CInt) {
        // SQLite documents this order: the pointer first, then the size.
        let bytes = sqlite3_column_blob(sqliteStatement, index)
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        if count > 0, let bytes {
            self = Data(bytes: bytes, count: count)
        } else {
            self = Data()
        }
    }
}
