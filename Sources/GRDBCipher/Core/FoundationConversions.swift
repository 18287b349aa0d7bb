import CSQLCipher
import Foundation

extension Data: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a blob. Empty data is an empty blob, not NULL.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }

    /// Decodes a blob, or the UTF-8 bytes of a text.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let data): return data
        case .string(let string): return Data(string.utf8)
        default: return nil
        }
    }

    /// Reads a blob or text column.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_BLOB, SQLITE_TEXT: self.init(unsafeColumnBlob: sqliteStatement, index: index)
        default: return nil
        }
    }
}

extension UUID: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a 16-byte blob.
    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }

    /// Decodes a 16-byte blob, or a text such as "E621E1F8-C36C-495A-93FC-0C247A3E6E5F".
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data): return data.withUnsafeBytes { UUID(bytes: $0) }
        case .string(let string): return UUID(uuidString: string)
        default: return nil
        }
    }

    /// Reads a 16-byte blob or a UUID text column.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(sqliteStatement, index)
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            guard let uuid = UUID(bytes: UnsafeRawBufferPointer(start: bytes, count: count)) else { return nil }
            self = uuid
        case SQLITE_TEXT:
            guard let uuid = UUID(uuidString: String(unsafeColumnText: sqliteStatement, index: index)) else { return nil }
            self = uuid
        default:
            return nil
        }
    }

    private init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
        self.init(uuid: uuid)
    }
}

extension URL: DatabaseValueConvertible {
    /// Stored as its absolute string.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(absoluteString)) }

    /// Decodes a text that is a valid URL.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        String.fromDatabaseValue(dbValue).flatMap { URL(string: $0) }
    }
}

extension Decimal: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a decimal text ("10.5"), so that no precision is lost.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(NSDecimalNumber(decimal: self).description(withLocale: nil)))
    }

    /// Decodes an integer, a real, or a text that is entirely a decimal number.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let int64): return Decimal(int64)
        case .double(let double): return Decimal(databaseReal: double)
        case .string(let string): return Decimal(databaseText: string)
        default: return nil
        }
    }

    /// Reads an integer, a real, or a text column that is entirely a decimal number.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self.init(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            self.init(databaseReal: sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            self.init(databaseText: String(unsafeColumnText: sqliteStatement, index: index))
        default:
            return nil
        }
    }

    /// The decimal that prints like the double ("0.1", not the binary
    /// expansion of 0.1); nil if it is not finite or out of Decimal's range.
    init?(databaseReal double: Double) {
        guard double.isFinite,
              let decimal = Decimal(string: String(double), locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self = decimal
    }

    /// The decimal of a text that is entirely a decimal number.
    init?(databaseText string: String) {
        guard Decimal.isDecimalNumber(string),
              let decimal = Decimal(string: string, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self = decimal
    }

    /// `Decimal(string:)` accepts a number followed by garbage ("12abc"): only
    /// accept `[+-]digits[.digits][e[+-]digits]`.
    private static func isDecimalNumber(_ string: String) -> Bool {
        var bytes = string.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var mantissaDigits = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
