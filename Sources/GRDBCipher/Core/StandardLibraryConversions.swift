import CSQLCipher

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

    /// Reads a numeric column: zero is false, anything else is true.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = sqlite3_value_int64(value) != 0
        case SQLITE_FLOAT: self = sqlite3_value_double(value) != 0
        default: return nil
        }
    }
}

extension DatabaseValueConvertible where Self: FixedWidthInteger {
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

    /// The value as SQLite stores it.
    @inlinable
    var storedInt64: Int64 {
        guard let int64 = Int64(exactly: self) else {
            preconditionFailure("\(Self.self) value does not fit in SQLite's 64-bit signed integer")
        }
        return int64
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
    /// Reads an integer or real column whose value fits in this type. The
    /// statement's connection must be used by one thread at a time, as
    /// GRDBCipher's connections are.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        // One column lookup for both the type and the value. SQLite's header
        // asks for "protected" values here; a column value is unprotected,
        // which only matters for a connection with a mutex. Connections are
        // opened with SQLITE_OPEN_NOMUTEX and used from one queue at a time,
        // so reading it is what sqlite3_column_type/int64 do internally.
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            guard let integer = Self(exactly: sqlite3_value_int64(value)) else { return nil }
            self = integer
        case SQLITE_FLOAT:
            guard let integer = Self(fittingTruncation: sqlite3_value_double(value)) else { return nil }
            self = integer
        default:
            return nil
        }
    }
}

extension StatementColumnConvertible where Self: FixedWidthInteger {
    /// Reads a column: the initializer already returns nil for NULL, so no
    /// separate NULL check.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        Self(sqliteStatement: sqliteStatement, index: index)
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

    /// Reads a real or integer column.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER, SQLITE_FLOAT: self = sqlite3_value_double(value)
        default: return nil
        }
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

    /// Reads a real or integer column.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let double = Double(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = Float(double)
    }
}

extension String: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a text.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

    /// Decodes a text.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        if case .string(let string) = dbValue.storage { return string }
        return nil
    }

    /// Reads a text column.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT else { return nil }
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
