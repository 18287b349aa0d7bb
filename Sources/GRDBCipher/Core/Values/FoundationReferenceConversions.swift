import Foundation

// Foundation's reference types store and decode as their value types do
// (NSDate as Date, NSUUID as UUID...). `NSNumber` has its own file.
//
// Decoding returns nil when Foundation cannot give the value as `Self`: a
// subclass such as `NSMutableData` decodes only where Foundation bridges to it.

extension NSString: DatabaseValueConvertible {
    /// Stored as a text.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(self as String))
    }

    /// Decodes a text, or a blob that holds valid UTF-8.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        textOrUTF8Blob(dbValue).map { Self(string: $0) }
    }
}

extension NSData: DatabaseValueConvertible {
    /// Stored as a blob, like `Data`. Empty data is an empty blob, not NULL.
    public var databaseValue: DatabaseValue {
        (self as Data).databaseValue
    }

    /// Decodes a blob, or the UTF-8 bytes of a text, like `Data`.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Data.fromDatabaseValue(dbValue).flatMap { $0 as? Self }
    }
}

extension NSDate: DatabaseValueConvertible {
    /// Stored like `Date`: "YYYY-MM-DD HH:MM:SS.SSS" in UTC.
    public var databaseValue: DatabaseValue {
        (self as Date).databaseValue
    }

    /// Decodes like `Date`: a text in one of SQLite's date formats, or a
    /// number of seconds since 1970.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Date.fromDatabaseValue(dbValue).flatMap { $0 as? Self }
    }
}

extension NSURL: DatabaseValueConvertible {
    /// Stored as its absolute string, like `URL`.
    public var databaseValue: DatabaseValue {
        (self as URL).databaseValue
    }

    /// Decodes a text, or a blob that holds valid UTF-8, that is a valid URL.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        textOrUTF8Blob(dbValue).flatMap { URL(string: $0) }.flatMap { $0 as? Self }
    }
}

extension NSUUID: DatabaseValueConvertible {
    /// Stored like `UUID`, as a 16-byte blob.
    public var databaseValue: DatabaseValue {
        (self as UUID).databaseValue
    }

    /// Decodes like `UUID`: a 16-byte blob, or a text such as
    /// "E621E1F8-C36C-495A-93FC-0C247A3E6E5F".
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        UUID.fromDatabaseValue(dbValue).flatMap { $0 as? Self }
    }
}

extension NSNull: DatabaseValueConvertible {
    /// Stored as NULL.
    public var databaseValue: DatabaseValue { .null }

    /// Always nil: `NSNull` is how NULL is written, not how it is read.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? { nil }
}

/// A text, or a blob decoded as UTF-8 (nil if it is not valid UTF-8).
private func textOrUTF8Blob(_ dbValue: DatabaseValue) -> String? {
    switch dbValue.storage {
    case .string(let string): return string
    case .blob(let data): return String(data: data, encoding: .utf8)
    default: return nil
    }
}
