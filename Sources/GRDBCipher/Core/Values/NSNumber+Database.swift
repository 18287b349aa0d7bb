import Foundation

extension NSNumber: DatabaseValueConvertible {
    /// An integer or a real, after the type the number holds: integers
    /// (`Bool` included, as 0 or 1) are stored as integers, `Float` and
    /// `Double` as reals.
    ///
    /// An `NSDecimalNumber` is stored as an integer when it is a whole number
    /// that fits in 64 bits, so that no digit is lost, and as a real otherwise.
    ///
    /// ```swift
    /// try db.execute(sql: "INSERT INTO item (price) VALUES (?)",
    ///                arguments: [NSDecimalNumber(string: "12")])  // stores the integer 12
    /// ```
    ///
    /// Traps for an unsigned value above `Int64.max`, which SQLite cannot
    /// store, as the unsigned integer types do.
    public var databaseValue: DatabaseValue {
        if let decimal = self as? NSDecimalNumber {
            if let int64 = decimal.decimalValue.exactInt64 {
                return DatabaseValue(storage: .int64(int64))
            }
            // Parsed from its text: Foundation's `doubleValue` is not correctly
            // rounded on Linux (1e30 gives 9.999999999999999e+29).
            let double = Double(decimal.description(withLocale: Locale(identifier: "en_US_POSIX")))
            return (double ?? decimal.doubleValue).databaseValue
        }
        let type = UInt8(bitPattern: objCType.pointee)
        switch type {
        case UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "s"), UInt8(ascii: "S"),
             UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "l"), UInt8(ascii: "q"):
            return DatabaseValue(storage: .int64(int64Value))
        case UInt8(ascii: "L"), UInt8(ascii: "Q"):
            return uint64Value.databaseValue
        case UInt8(ascii: "B"):
            return DatabaseValue(storage: .int64(boolValue ? 1 : 0))
        case UInt8(ascii: "f"):
            return Double(floatValue).databaseValue
        case UInt8(ascii: "d"):
            return doubleValue.databaseValue
        default:
            // Foundation creates numbers of the types above only.
            preconditionFailure("NSNumber of unexpected type \(String(cString: objCType)) cannot be stored")
        }
    }

    /// Decodes an integer or a real as a number of the same value, and a
    /// text that starts with a decimal number ("12.50") as an
    /// `NSDecimalNumber`. Returns nil for NULL and blobs.
    ///
    /// `NSDecimalNumber.fromDatabaseValue` decodes like `Decimal`, as in
    /// GRDB: an integer exactly, a real as `Decimal(double)`, a text as
    /// `Decimal(string:)` reads it.
    ///
    /// ```swift
    /// let price = try NSDecimalNumber.fetchOne(db, sql: "SELECT '12.50'")  // 12.5
    /// ```
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        let decodesDecimals = self is NSDecimalNumber.Type
        let number: NSNumber?
        switch dbValue.storage {
        case .int64(let int64):
            number = decodesDecimals ? NSDecimalNumber(value: int64) : NSNumber(value: int64)
        case .double(let double):
            if decodesDecimals {
                number = Decimal(databaseReal: double).map { NSDecimalNumber(decimal: $0) }
            } else {
                number = NSNumber(value: double)
            }
        case .string(let string):
            number = Decimal(databaseText: string).map { NSDecimalNumber(decimal: $0) }
        case .null, .blob:
            number = nil
        }
        return number as? Self
    }
}

extension Decimal {
    /// The value as an `Int64`, if it is a whole number in `Int64`'s range.
    ///
    /// Foundation's own conversions (`int64Value`) wrap or return 0 out of range.
    var exactInt64: Int64? {
        guard isFinite else { return nil }
        var value = self
        var whole = Decimal()
        NSDecimalRound(&whole, &value, 0, .plain)
        guard whole == self, whole >= Decimal(Int64.min), whole <= Decimal(Int64.max) else { return nil }
        return Int64(NSDecimalNumber(decimal: whole).description(withLocale: nil))
    }
}
