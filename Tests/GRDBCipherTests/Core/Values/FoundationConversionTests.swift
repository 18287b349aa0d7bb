import Foundation
import Testing
@testable import GRDBCipher

// Foundation's reference types (NSNumber, NSString, NSData, NSDate, NSURL,
// NSUUID, NSNull) stored in and read from a private in-memory database, with
// the rules GRDB documents for each storage class.

/// What SQLite makes of an SQL expression, decoded as `T` (nil if it cannot be).
private func decode<T: DatabaseValueConvertible>(
    _ expression: String, as type: T.Type, _ db: Database) throws -> T?
{
    let row = try #require(try Row.fetchAll(db, sql: "SELECT \(expression)").first)
    return T.fromDatabaseValue(row.databaseValues[0])
}

/// The storage class and value SQLite holds for a bound value.
private func stored(_ value: any DatabaseValueConvertible, _ db: Database) throws -> (type: String, value: DatabaseValue) {
    let row = try #require(try Row.fetchAll(db, sql: "SELECT typeof(?), ?", arguments: [value, value]).first)
    let type = try #require(String.fromDatabaseValue(row.databaseValues[0]))
    return (type, row.databaseValues[1])
}

private let posix = Locale(identifier: "en_US_POSIX")

@Suite("Foundation reference type conversions")
struct FoundationConversionTests {
    // MARK: - NSNumber: storing

    @Test func integerNumbersAreStoredAsIntegers() throws {
        try inMemoryDatabase { db throws in
            let numbers: [(NSNumber, Int64)] = [
                (NSNumber(value: Int8.min), Int64(Int8.min)), (NSNumber(value: UInt8.max), 255),
                (NSNumber(value: Int16.min), Int64(Int16.min)), (NSNumber(value: UInt16.max), 65535),
                (NSNumber(value: Int32.min), Int64(Int32.min)), (NSNumber(value: UInt32.max), Int64(UInt32.max)),
                (NSNumber(value: Int.min), Int64(Int.min)), (NSNumber(value: Int64.max), Int64.max),
                (NSNumber(value: UInt(Int64.max)), Int64.max), (NSNumber(value: UInt64(Int64.max)), Int64.max),
                (NSNumber(value: 0), 0),
            ]
            for (number, expected) in numbers {
                let result = try stored(number, db)
                #expect(result.type == "integer", "\(number)")
                #expect(result.value == DatabaseValue(storage: .int64(expected)), "\(number)")
            }
        }
    }

    @Test func booleanNumbersAreStoredAsZeroOrOne() throws {
        try inMemoryDatabase { db throws in
            #expect(try stored(NSNumber(value: true), db).value == DatabaseValue(storage: .int64(1)))
            #expect(try stored(NSNumber(value: false), db).value == DatabaseValue(storage: .int64(0)))
            #expect(try stored(NSNumber(value: true), db).type == "integer")
        }
    }

    @Test func floatingPointNumbersAreStoredAsReals() throws {
        try inMemoryDatabase { db throws in
            #expect(try stored(NSNumber(value: 0.1), db).value == DatabaseValue(storage: .double(0.1)))
            #expect(try stored(NSNumber(value: Float(1.5)), db).value == DatabaseValue(storage: .double(1.5)))
            #expect(try stored(NSNumber(value: Float(0.1)), db).value == DatabaseValue(storage: .double(Double(Float(0.1)))))
            // A real that happens to be whole stays a real.
            #expect(try stored(NSNumber(value: 2.0), db).type == "real")
        }
    }

    @Test func wholeDecimalNumbersThatFitAreStoredAsIntegers() throws {
        try inMemoryDatabase { db throws in
            let wholes: [(String, Int64)] = [
                ("12", 12), ("12.00", 12), ("-7", -7), ("0", 0),
                ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
            ]
            for (text, expected) in wholes {
                let result = try stored(NSDecimalNumber(string: text, locale: posix), db)
                #expect(result.type == "integer", "\(text)")
                #expect(result.value == DatabaseValue(storage: .int64(expected)), "\(text)")
            }
        }
    }

    @Test func otherDecimalNumbersAreStoredAsReals() throws {
        try inMemoryDatabase { db throws in
            let reals: [(String, Double)] = [
                ("12.5", 12.5), ("-0.25", -0.25),
                ("9223372036854775808", 9223372036854775808), ("1e30", 1e30), ("0.1", 0.1),
                ("3.14159265358979323846264338327950288", Double.pi),
            ]
            for (text, expected) in reals {
                let result = try stored(NSDecimalNumber(string: text, locale: posix), db)
                #expect(result.type == "real", "\(text)")
                #expect(result.value == DatabaseValue(storage: .double(expected)), "\(text)")
            }
        }
    }

    // MARK: - NSNumber: decoding each storage class

    @Test func numberDecodesIntegersAndRealsExactly() throws {
        try inMemoryDatabase { db throws in
            let integer = try #require(try decode("9223372036854775807", as: NSNumber.self, db))
            #expect(integer.int64Value == Int64.max)
            #expect(!(integer is NSDecimalNumber))
            let real = try #require(try decode("1.5", as: NSNumber.self, db))
            #expect(real.doubleValue == 1.5)
            #expect(!(real is NSDecimalNumber))
        }
    }

    @Test func numberDecodesDecimalTextAsDecimalNumber() throws {
        try inMemoryDatabase { db throws in
            let number = try #require(try decode("'12.50'", as: NSNumber.self, db))
            let decimal = try #require(number as? NSDecimalNumber)
            #expect(decimal == NSDecimalNumber(string: "12.5", locale: posix))
            #expect(try decode("'-3.5e2'", as: NSNumber.self, db) == NSDecimalNumber(value: -350))
        }
    }

    @Test func numberDoesNotDecodeNullBlobsOrOtherText() throws {
        try inMemoryDatabase { db throws in
            #expect(try decode("NULL", as: NSNumber.self, db) == nil)
            #expect(try decode("x'3132'", as: NSNumber.self, db) == nil)
            #expect(try decode("'twelve'", as: NSNumber.self, db) == nil)
            #expect(try decode("''", as: NSNumber.self, db) == nil)
            // As GRDB (and Decimal): the number at the start of the text.
            #expect(try decode("'12abc'", as: NSNumber.self, db) == NSDecimalNumber(value: 12))
        }
    }

    @Test func numbersRoundTripThroughFetch() throws {
        try inMemoryDatabase { db throws in
            for number in [NSNumber(value: 42), NSNumber(value: -1.25), NSNumber(value: Int64.min)] {
                #expect(try NSNumber.fetchOne(db, sql: "SELECT ?", arguments: [number]) == number)
            }
            #expect(throws: RowDecodingError.self) { try NSNumber.fetchOne(db, sql: "SELECT x'00'") }
        }
    }

    // MARK: - NSDecimalNumber: decoding each storage class

    @Test func decimalNumberDecodesIntegersExactly() throws {
        try inMemoryDatabase { db throws in
            let max = try #require(try decode("9223372036854775807", as: NSDecimalNumber.self, db))
            #expect(max.description(withLocale: posix) == "9223372036854775807")
            let min = try #require(try decode("-9223372036854775808", as: NSDecimalNumber.self, db))
            #expect(min.description(withLocale: posix) == "-9223372036854775808")
        }
    }

    @Test func decimalNumberDecodesRealsAsTheyPrint() throws {
        try inMemoryDatabase { db throws in
            #expect(try decode("0.1", as: NSDecimalNumber.self, db)?.description(withLocale: posix) == "0.1")
            #expect(try decode("1.5", as: NSDecimalNumber.self, db)?.description(withLocale: posix) == "1.5")
            #expect(try decode("-2.0", as: NSDecimalNumber.self, db) == NSDecimalNumber(value: -2))
            // Infinity has no decimal.
            #expect(try decode("1e999", as: NSDecimalNumber.self, db) == nil)
        }
    }

    @Test func decimalNumberDecodesDecimalTextOnly() throws {
        try inMemoryDatabase { db throws in
            let exact = try #require(try decode("'12345678901234567890.123456789'", as: NSDecimalNumber.self, db))
            #expect(exact.description(withLocale: posix) == "12345678901234567890.123456789")
            #expect(try decode("'abc'", as: NSDecimalNumber.self, db) == nil)
            #expect(try decode("x'3132'", as: NSDecimalNumber.self, db) == nil)
            #expect(try decode("NULL", as: NSDecimalNumber.self, db) == nil)
        }
    }

    @Test func decimalNumberDecodesLikeDecimal() throws {
        try inMemoryDatabase { db throws in
            for expression in ["42", "0.1", "1e20", "'-3.5e2'", "'0.000001'", "'12abc'", "x'31'", "1e999"] {
                let decimal = try decode(expression, as: Decimal.self, db)
                let number = try decode(expression, as: NSDecimalNumber.self, db)
                #expect(number?.decimalValue == decimal, "\(expression)")
            }
        }
    }

    @Test func decimalFastPathDecodesLikeItsDatabaseValue() throws {
        try inMemoryDatabase { db throws in
            #expect(try Decimal.fetchAll(db, sql: "VALUES (42), (0.1), ('-3.5e2')")
                == [Decimal(42), Decimal(string: "0.1", locale: posix)!, Decimal(-350)])
            #expect(try Decimal.fetchAll(db, sql: "SELECT '12abc'") == [Decimal(12)])
            #expect(throws: RowDecodingError.self) { try Decimal.fetchAll(db, sql: "SELECT x'31'") }
        }
    }

    @Test func decimalNumberRoundTripsThroughItsReal() throws {
        try inMemoryDatabase { db throws in
            // A fraction is stored as a real, and read back as GRDB reads a
            // real into a decimal (`Decimal(double)`), with the real's error.
            let price = NSDecimalNumber(string: "19.99", locale: posix)
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT ?", arguments: [price])
                == NSDecimalNumber(decimal: Decimal(19.99)))
            let big = NSDecimalNumber(string: "123456789012345678", locale: posix)
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT ?", arguments: [big]) == big)
        }
    }

    // MARK: - NSString

    @Test func stringIsStoredAsText() throws {
        try inMemoryDatabase { db throws in
            let value: NSString = "café 日本語"
            #expect(try stored(value, db).type == "text")
            #expect(try stored(value, db).value == DatabaseValue(storage: .string("café 日本語")))
            #expect(try NSString.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
        }
    }

    @Test func stringDecodesTextAndUTF8Blobs() throws {
        try inMemoryDatabase { db throws in
            #expect(try decode("'abc'", as: NSString.self, db) == "abc")
            #expect(try decode("CAST('é' AS BLOB)", as: NSString.self, db) == "é")
            #expect(try decode("x'FF'", as: NSString.self, db) == nil)
            #expect(try decode("42", as: NSString.self, db) == nil)
            #expect(try decode("1.5", as: NSString.self, db) == nil)
            #expect(try decode("NULL", as: NSString.self, db) == nil)
        }
    }

    @Test func mutableStringDecodesAsMutableString() throws {
        try inMemoryDatabase { db throws in
            let string = try #require(try decode("'abc'", as: NSMutableString.self, db))
            string.append("d")
            #expect(string == "abcd")
        }
    }

    // MARK: - NSData

    @Test func dataIsStoredAsBlob() throws {
        try inMemoryDatabase { db throws in
            let value = NSData(data: Data([0, 1, 255]))
            #expect(try stored(value, db).value == DatabaseValue(storage: .blob(Data([0, 1, 255]))))
            #expect(try stored(NSData(), db).type == "blob")
            #expect(try NSData.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
        }
    }

    @Test func dataDecodesBlobsAndTextBytes() throws {
        try inMemoryDatabase { db throws in
            #expect(try decode("x'0102'", as: NSData.self, db) == NSData(data: Data([1, 2])))
            #expect(try decode("'é'", as: NSData.self, db) == NSData(data: Data("é".utf8)))
            #expect(try decode("42", as: NSData.self, db) == nil)
            #expect(try decode("1.5", as: NSData.self, db) == nil)
            #expect(try decode("NULL", as: NSData.self, db) == nil)
        }
    }

    // MARK: - NSDate

    @Test func dateIsStoredLikeDate() throws {
        try inMemoryDatabase { db throws in
            let date = Date(timeIntervalSince1970: 1_000_000_000.25)
            let result = try stored(date as NSDate, db)
            #expect(result.value == DatabaseValue(storage: .string("2001-09-09 01:46:40.250")))
            #expect(result.value == date.databaseValue)
            #expect(try NSDate.fetchOne(db, sql: "SELECT ?", arguments: [date as NSDate]) == date as NSDate)
        }
    }

    @Test func dateDecodesSQLiteDatesAndUnixTimestamps() throws {
        try inMemoryDatabase { db throws in
            let expected = Date(timeIntervalSince1970: 1_000_000_000) as NSDate
            #expect(try decode("'2001-09-09 01:46:40'", as: NSDate.self, db) == expected)
            #expect(try decode("'2001-09-09T03:46:40+02:00'", as: NSDate.self, db) == expected)
            #expect(try decode("1000000000", as: NSDate.self, db) == expected)
            #expect(try decode("1000000000.5", as: NSDate.self, db) == Date(timeIntervalSince1970: 1_000_000_000.5) as NSDate)
            #expect(try decode("'01:46:40'", as: NSDate.self, db) == nil)
            #expect(try decode("'yesterday'", as: NSDate.self, db) == nil)
            #expect(try decode("NULL", as: NSDate.self, db) == nil)
        }
    }

    @Test func dateDecodesEveryStorageClassLikeDate() throws {
        try inMemoryDatabase { db throws in
            for expression in ["'2024-02-29'", "'2024-02-29 12:00:00.123'", "0", "-1.5", "'12:00'", "'x'", "x'00'", "NULL"] {
                let date = try decode(expression, as: Date.self, db)
                let nsDate = try decode(expression, as: NSDate.self, db)
                #expect(nsDate.map { $0 as Date } == date, "\(expression)")
            }
        }
    }

    // MARK: - NSURL

    @Test func urlIsStoredAsItsAbsoluteString() throws {
        try inMemoryDatabase { db throws in
            let relative = try #require(NSURL(string: "b/c?q=1", relativeTo: URL(string: "https://example.com/a/")))
            #expect(try stored(relative, db).value == DatabaseValue(storage: .string("https://example.com/a/b/c?q=1")))
            let url = try #require(NSURL(string: "https://example.com/a%20b#frag"))
            #expect(try stored(url, db).type == "text")
            #expect(try NSURL.fetchOne(db, sql: "SELECT ?", arguments: [url])?.absoluteString == url.absoluteString)
        }
    }

    @Test func urlDecodesTextAndUTF8Blobs() throws {
        try inMemoryDatabase { db throws in
            #expect(try decode("'https://example.com/'", as: NSURL.self, db)?.absoluteString == "https://example.com/")
            #expect(try decode("CAST('file:///tmp/x' AS BLOB)", as: NSURL.self, db)?.absoluteString == "file:///tmp/x")
            #expect(try decode("''", as: NSURL.self, db) == nil)
            #expect(try decode("42", as: NSURL.self, db) == nil)
            #expect(try decode("NULL", as: NSURL.self, db) == nil)
        }
    }

    // MARK: - NSUUID

    @Test func uuidIsStoredAsA16ByteBlob() throws {
        try inMemoryDatabase { db throws in
            let uuid = try #require(NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            let result = try stored(uuid, db)
            #expect(result.type == "blob")
            #expect(result.value == DatabaseValue(storage: .blob(Data([
                0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A,
                0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F]))))
            #expect(try NSUUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid]) == uuid)
        }
    }

    @Test func uuidDecodes16ByteBlobsAndUUIDStrings() throws {
        try inMemoryDatabase { db throws in
            let expected = NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            #expect(try decode("x'E621E1F8C36C495A93FC0C247A3E6E5F'", as: NSUUID.self, db) == expected)
            #expect(try decode("'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'", as: NSUUID.self, db) == expected)
            #expect(try decode("'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'", as: NSUUID.self, db) == expected)
            #expect(try decode("x'E621E1F8C36C495A93FC0C247A3E6E'", as: NSUUID.self, db) == nil)
            #expect(try decode("'E621E1F8C36C495A93FC0C247A3E6E5F'", as: NSUUID.self, db) == nil)
            #expect(try decode("42", as: NSUUID.self, db) == nil)
            #expect(try decode("NULL", as: NSUUID.self, db) == nil)
        }
    }

    // MARK: - NSNull

    @Test func nullIsStoredAsNull() throws {
        try inMemoryDatabase { db throws in
            #expect(try stored(NSNull(), db).type == "null")
            #expect(try Bool.fetchOne(db, sql: "SELECT ? IS NULL", arguments: [NSNull()]) == true)
        }
    }

    @Test func nullNeverDecodes() throws {
        try inMemoryDatabase { db throws in
            for expression in ["NULL", "0", "''", "x''"] {
                #expect(try decode(expression, as: NSNull.self, db) == nil, "\(expression)")
            }
        }
    }
}
