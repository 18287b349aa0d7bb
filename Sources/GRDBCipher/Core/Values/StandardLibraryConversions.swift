import CSQLCipher
import Foundation

// Bool, the integers, Double, Float and String, both ways and on the fetch fast path.
// Integers never wrap: a value that does not fit in the requested width fails to
// decode, and an unsigned value above Int64.max cannot be stored.

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as the integer 1 or 0.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }

    /// Binds the integer 1 or 0.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, self ? 1 : 0)
    }

    /// Decodes a number: zero is false, anything else is true.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let int64): return int64 != 0
        case .double(let double): return double != 0
        default: return nil
        }
    }

    /// Reads a column as SQLite converts it to an integer (a text such as
    /// `'1'` too, as GRDB does): zero is false, anything else is true.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_int64(sqliteStatement, index) != 0
    }
}

// `Codable` too, so that these implementations are preferred to those of
// Codable values (DatabaseValueConvertible+Codable.swift).
extension DatabaseValueConvertible where Self: FixedWidthInteger & Codable {
    /// Stored as a 64-bit integer. Traps for an unsigned value above `Int64.max`,
    /// which SQLite cannot store.
    @inlinable
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .int64(storedInt64))
    }

    /// Binds a 64-bit integer. Traps for an unsigned value above `Int64.max`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, storedInt64)
    }

    /// The value as SQLite stores it. An unsigned value above `Int64.max`
    /// traps with the standard library's message ("Not enough bits to
    /// represent the passed value"), as in GRDB.
    @inlinable
    var storedInt64: Int64 {
        Int64(self)
    }

    /// Decodes an integer that fits in this type, or a real whose integral part
    /// fits (truncated toward zero, as SQLite's CAST does); nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        switch dbValue.storage {
        case .int64(let int64): return Self(exactly: int64)
        case .double(let double): return Self(fittingTruncation: double)
        default: return nil
        }
    }
}

extension StatementColumnConvertible where Self: FixedWidthInteger {
    /// Reads a column as SQLite converts it to a 64-bit integer (a text
    /// that holds a number too, such as the numbers SQLCipher's pragmas
    /// return; a real is truncated), then returns nil if the integer does not
    /// fit in this type. Reads NULL as 0: the fetch methods check for NULL first.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let integer = Self(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = integer
    }
}

extension StatementColumnConvertible where Self: FixedWidthInteger {
    /// Reads a column that is not NULL, as ``init(sqliteStatement:index:)``
    /// does, with a single lookup of the column.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        // SQLite's header asks for "protected" values here; a column value is
        // unprotected, which only matters for a connection with a mutex.
        // Connections are opened with SQLITE_OPEN_NOMUTEX and used from one
        // queue at a time, so this is what sqlite3_column_type/int64 do.
        let value = sqlite3_column_value(sqliteStatement, index)
        if sqlite3_value_type(value) == SQLITE_NULL { return nil }
        return Self(exactly: sqlite3_value_int64(value))
    }
}

extension FixedWidthInteger {
    /// The integral part of `double`, or nil when it is not finite or out of range.
    @inlinable
    init?(fittingTruncation double: Double) {
        guard double.isFinite else { return nil }
        self.init(exactly: double.rounded(.towardZero))
    }
}

extension Int: DatabaseValueConvertible, StatementColumnConvertible {}
extension Int8: DatabaseValueConvertible, StatementColumnConvertible {}
extension Int16: DatabaseValueConvertible, StatementColumnConvertible {}
extension Int32: DatabaseValueConvertible, StatementColumnConvertible {}
extension Int64: DatabaseValueConvertible, StatementColumnConvertible {}
extension UInt: DatabaseValueConvertible, StatementColumnConvertible {}
extension UInt8: DatabaseValueConvertible, StatementColumnConvertible {}
extension UInt16: DatabaseValueConvertible, StatementColumnConvertible {}
extension UInt32: DatabaseValueConvertible, StatementColumnConvertible {}
extension UInt64: DatabaseValueConvertible, StatementColumnConvertible {}

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a real. SQLite stores NaN as NULL.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }

    /// Binds a real (NaN binds NULL, as SQLite stores it).
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, self)
    }

    /// Decodes a real or an integer.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let int64): return Double(int64)
        case .double(let double): return double
        default: return nil
        }
    }

    /// Reads a column as SQLite converts it to a real (a text that holds a
    /// number too).
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_double(sqliteStatement, index)
    }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a real.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }

    /// Binds a real.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, Double(self))
    }

    /// Decodes a real or an integer.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map(Float.init)
    }

    /// Reads a column as SQLite converts it to a real.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = Float(sqlite3_column_double(sqliteStatement, index))
    }
}

extension String: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a text.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

    /// Decodes a text, or a blob that holds UTF-8 (as SQLite converts a
    /// blob to text).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let string): return string
        case .blob(let data): return String(data: data, encoding: .utf8)
        default: return nil
        }
    }

    /// Reads a column as SQLite converts it to text: a number gives its
    /// decimal form, a blob its bytes.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(unsafeColumnText: sqliteStatement, index: index)
    }
}

extension DatabaseValueConvertible where Self: RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// Stored as its raw value.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    /// Decodes the raw value, then the case; nil for an unknown raw value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap(Self.init(rawValue:))
    }
}

extension StatementColumnConvertible where Self: RawRepresentable, Self.RawValue: StatementColumnConvertible {
    /// Reads the raw value from the column, then the case.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(rawValue: rawValue)
    }
}
