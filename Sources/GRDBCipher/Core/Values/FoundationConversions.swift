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

    /// Reads a column as SQLite converts it to bytes, as GRDB does: a blob,
    /// the UTF-8 of a text, the decimal text of a number (42 reads as the
    /// bytes of "42").
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(unsafeColumnBlob: sqliteStatement, index: index)
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

extension Decimal: DatabaseValueConvertible {
    /// Stored as a decimal text ("10.5"), so that no precision is lost.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(NSDecimalNumber(decimal: self).description(withLocale: posixLocale)))
    }

    /// Decodes an integer, a real (`Decimal(double)`), or a text read by
    /// `Decimal(string:)` in the POSIX locale, as GRDB does.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let int64):
            return Decimal(int64)
        case .double(let double):
            return Decimal(databaseReal: double)
        case .string(let string):
            return Decimal(databaseText: string)
        default:
            return nil
        }
    }

    /// The decimal of a real, as GRDB converts it (`Decimal(double)`); nil
    /// for an infinity (where Foundation on Linux traps) and for a value out
    /// of Decimal's range.
    init?(databaseReal double: Double) {
        guard double.isFinite else { return nil }
        let decimal = Decimal(double)
        guard !decimal.isNaN else { return nil }
        self = decimal
    }

    /// The decimal at the start of a text, as `Decimal(string:)` reads it in
    /// the POSIX locale (as GRDB does: "12abc" is 12).
    init?(databaseText string: String) {
        guard let decimal = Decimal(string: string, locale: posixLocale) else { return nil }
        self = decimal
    }
}

extension Decimal: StatementColumnConvertible {
    /// Reads an integer, real or text column as ``fromDatabaseValue(_:)``
    /// decodes them; nil for a blob.
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
}

/// The locale of numbers stored as text.
let posixLocale = Locale(identifier: "en_US_POSIX")
