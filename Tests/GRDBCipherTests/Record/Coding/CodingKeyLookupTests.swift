import Foundation
import Testing
@testable import GRDBCipher

/// Decodable records find a key's column by comparing the key's bytes with
/// the key read at the same place on the previous row, when the key type is
/// a plain value of 8 bytes at most. These records read their keys in
/// orders and with key types that make the comparison miss, and must still
/// get the right columns.
@Suite struct CodingKeyLookupTests {
    /// Reads its keys in an order that depends on the row.
    private struct Shuffled: Decodable, FetchableRecord {
        var a: Int
        var b: String
        var c: Double

        enum CodingKeys: String, CodingKey { case a, b, c }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            a = try container.decode(Int.self, forKey: .a)
            if a.isMultiple(of: 2) {
                b = try container.decode(String.self, forKey: .b)
                c = try container.decode(Double.self, forKey: .c)
            } else {
                c = try container.decode(Double.self, forKey: .c)
                b = try container.decode(String.self, forKey: .b)
            }
        }
    }

    /// A key of 8 plain bytes whose values name columns by number: equal
    /// bytes, equal name.
    private struct NumberKey: CodingKey {
        var number: Int
        var stringValue: String { "c\(number)" }
        var intValue: Int? { number }
        init(_ number: Int) { self.number = number }
        init?(stringValue: String) {
            guard stringValue.hasPrefix("c"), let number = Int(stringValue.dropFirst()) else { return nil }
            self.number = number
        }
        init?(intValue: Int) { number = intValue }
    }

    /// A key that holds a string: not a plain value, found by name.
    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads `c0` to `c2` through both key types, in a row-dependent order.
    private struct Numbered: Decodable, FetchableRecord {
        var values: [Int]

        init(from decoder: any Decoder) throws {
            let numbers = try decoder.container(keyedBy: NumberKey.self)
            let names = try decoder.container(keyedBy: NameKey.self)
            let first = try numbers.decode(Int.self, forKey: NumberKey(0))
            let order = first.isMultiple(of: 2) ? [1, 2] : [2, 1]
            var values = [first, 0, 0]
            for number in order {
                values[number] = number == 1
                    ? try names.decode(Int.self, forKey: NameKey("c1"))
                    : try numbers.decode(Int.self, forKey: NumberKey(2))
            }
            self.values = values
        }
    }

    @Test func keysReadInAnotherOrderOnSomeRowsFindTheirColumns() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b TEXT, c REAL)")
            for index in 0..<6 {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [index, "b\(index)", Double(index) / 2])
            }
            let records = try Shuffled.fetchAll(db, sql: "SELECT a, b, c FROM t ORDER BY a")
            #expect(records.map(\.a) == Array(0..<6))
            #expect(records.map(\.b) == (0..<6).map { "b\($0)" })
            #expect(records.map(\.c) == (0..<6).map { Double($0) / 2 })
        }
    }

    @Test func structKeysOfPlainBytesAndOfStringsFindTheirColumns() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE t (c0 INTEGER, c1 INTEGER, c2 INTEGER)")
            for index in 0..<6 {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [index, 10 + index, 20 + index])
            }
            let records = try Numbered.fetchAll(db, sql: "SELECT c0, c1, c2 FROM t ORDER BY c0")
            #expect(records.map(\.values) == (0..<6).map { [$0, 10 + $0, 20 + $0] })
        }
    }
}
