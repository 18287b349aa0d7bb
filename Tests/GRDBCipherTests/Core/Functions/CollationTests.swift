import Foundation
import Testing
@testable import GRDBCipher

private let byLength = DatabaseCollation("byLength") { lhs, rhs in
    lhs.count < rhs.count ? .orderedAscending : (lhs.count == rhs.count ? .orderedSame : .orderedDescending)
}

/// Creates table `w` with the given words, in this order.
private func createWords(_ db: Database, _ words: [String]) throws {
    try db.execute(sql: "CREATE TABLE w (text TEXT)")
    for word in words {
        try db.execute(sql: "INSERT INTO w VALUES (?)", arguments: [word])
    }
}

@Suite("Collations")
struct CollationTests {
    @Test func customCollationOrdersRows() throws {
        try inMemoryDatabase { db throws in
            db.add(collation: byLength)
            try createWords(db, ["ccc", "a", "dddd", "bb"])
            #expect(try String.fetchAll(db, sql: "SELECT text FROM w ORDER BY text COLLATE byLength")
                == ["a", "bb", "ccc", "dddd"])
            #expect(try String.fetchAll(db, sql: "SELECT text FROM w ORDER BY text COLLATE byLength DESC")
                == ["dddd", "ccc", "bb", "a"])
        }
    }

    @Test func customCollationDecidesEquality() throws {
        try inMemoryDatabase { db throws in
            db.add(collation: byLength)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'abc' = 'xyz' COLLATE byLength") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'abc' = 'xy' COLLATE byLength") == false)
        }
    }

    @Test func customCollationOfAColumnApplies() throws {
        try inMemoryDatabase { db throws in
            db.add(collation: byLength)
            try db.execute(sql: "CREATE TABLE w (text TEXT COLLATE byLength)")
            for word in ["ccc", "a", "bb"] {
                try db.execute(sql: "INSERT INTO w VALUES (?)", arguments: [word])
            }
            #expect(try String.fetchAll(db, sql: "SELECT text FROM w ORDER BY text") == ["a", "bb", "ccc"])
            #expect(try String.fetchAll(db, sql: "SELECT text FROM w WHERE text = 'zz'") == ["bb"])
        }
    }

    @Test func caseInsensitiveCompareOrdersIgnoringCase() throws {
        try inMemoryDatabase { db throws in
            db.add(collation: .caseInsensitiveCompare)
            try createWords(db, ["cherry", "Banana", "apple"])
            // Binary order puts uppercase first...
            #expect(try String.fetchAll(db, sql: "SELECT text FROM w ORDER BY text")
                == ["Banana", "apple", "cherry"])
            // ...the collation does not.
            #expect(try String.fetchAll(
                db, sql: "SELECT text FROM w ORDER BY text COLLATE \(DatabaseCollation.caseInsensitiveCompare.name)")
                == ["apple", "Banana", "cherry"])
        }
    }

    @Test func caseInsensitiveCompareMakesCaseVariantsEqual() throws {
        try inMemoryDatabase { db throws in
            db.add(collation: .caseInsensitiveCompare)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'Straße' = 'STRASSE' COLLATE swiftCaseInsensitiveCompare")
                == ("Straße".caseInsensitiveCompare("STRASSE") == .orderedSame))
            #expect(try Bool.fetchOne(db, sql: "SELECT 'abc' = 'ABC' COLLATE swiftCaseInsensitiveCompare") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'abc' = 'ABD' COLLATE swiftCaseInsensitiveCompare") == false)
        }
    }

    @Test func unicodeCompareOrdersLikeSwift() throws {
        try inMemoryDatabase { db throws in
            db.add(collation: .unicodeCompare)
            let decomposed = "e\u{301}"  // é as e + combining acute accent
            let words = ["f", decomposed, "a", "z"]
            try createWords(db, words)
            // Bytes put the decomposed é before f...
            #expect(try String.fetchAll(db, sql: "SELECT text FROM w ORDER BY text") == ["a", decomposed, "f", "z"])
            // ...Swift compares it as the composed é, after z.
            #expect(try String.fetchAll(db, sql: "SELECT text FROM w ORDER BY text COLLATE swiftCompare")
                == words.sorted())
            #expect(words.sorted() == ["a", "f", "z", decomposed])
        }
    }

    @Test func unicodeCompareTreatsCanonicallyEquivalentStringsAsEqual() throws {
        try inMemoryDatabase { db throws in
            db.add(collation: .unicodeCompare)
            let sql = "SELECT ? = ? COLLATE swiftCompare"
            #expect(try Bool.fetchOne(db, sql: sql, arguments: ["e\u{301}", "\u{E9}"]) == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT ? = ?", arguments: ["e\u{301}", "\u{E9}"]) == false)
        }
    }

    @Test func unknownCollationIsAnError() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try Bool.fetchOne(db, sql: "SELECT 'a' = 'b' COLLATE byLength")
            }
            #expect(error?.message?.contains("byLength") == true)
        }
    }

    @Test func removedCollationIsNoLongerAvailable() throws {
        try inMemoryDatabase { db throws in
            db.add(collation: byLength)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'a' = 'b' COLLATE byLength") == true)
            db.remove(collation: byLength)
            #expect(throws: DatabaseError.self) { try Bool.fetchOne(db, sql: "SELECT 'a' = 'b' COLLATE byLength") }
        }
    }
}
