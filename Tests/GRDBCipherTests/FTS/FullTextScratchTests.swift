import Foundation
import Testing
@testable import GRDBCipher

/// The process-wide scratch database that tokenizes strings and checks
/// patterns: it must give the answers (and the errors) of a fresh database.
@Suite struct FullTextScratchTests {
    @Test func manyTokenizerConfigurationsEachTokenizeAsAFreshDatabase() throws {
        // More configurations than the scratch keeps tables for: it drops
        // them and goes on.
        for index in 0..<40 {
            // Two characters a configuration: 40 configurations, 20 symbols.
            let symbols = Array("#$%&*+-./:;<=>?@!~^|")
            let separator = symbols[index % symbols.count]
            let tokenizer = FTS3TokenizerDescriptor.unicode61(tokenCharacters: index < 20 ? [separator, "_"] : [separator])
            let input = "a\(separator)b c_d e"
            let expected = try DatabaseQueue().inDatabase { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE tokens USING fts3tokenize(\(([tokenizer.name] + tokenizer.arguments.map { "\"\($0)\"" }).joined(separator: ", ")))")
                return try String.fetchAll(db, sql: "SELECT token FROM tokens WHERE input = ? ORDER BY position", arguments: [input])
            }
            #expect(try FTS3.tokenize(input, withTokenizer: tokenizer) == expected, "configuration \(index)")
        }
    }

    @Test func manyColumnSetsCheckFTS5PatternsAsAFreshDatabase() throws {
        for index in 0..<40 {
            let columns = ["c\(index)", "other"]
            #expect(try FTS5Pattern(rawPattern: "c\(index): word", allowedColumns: columns).rawPattern == "c\(index): word")
            let error = #expect(throws: DatabaseError.self) {
                try FTS5Pattern(rawPattern: "missing: word", allowedColumns: columns)
            }
            #expect(error?.message == "no such column: missing")
            #expect(error?.sql == nil)
        }
    }

    @Test func anUnknownTokenizerFailsWithGRDBsStatement() throws {
        let error = #expect(throws: DatabaseError.self) {
            try FTS3.tokenize("a b", withTokenizer: FTS3TokenizerDescriptor("nope"))
        }
        // The error comes from GRDB's own statements, run in a fresh
        // database, not from the scratch database's tables.
        #expect(error?.sql == "CREATE VIRTUAL TABLE tokens USING fts3tokenize(nope)")
    }

    @Test func aColumnNamedDocumentIsCheckedAsGRDBChecksIt() throws {
        // GRDB checks patterns on a table named "document", which SQLite
        // cannot create with a column of that name: the same error here.
        let error = #expect(throws: DatabaseError.self) {
            try FTS5Pattern(rawPattern: "word", allowedColumns: ["document"])
        }
        #expect(error?.message?.contains("document") == true, "\(String(describing: error))")
    }

    @Test func patternsAreCheckedConcurrently() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        #expect(FTS3Pattern(matchingAllPrefixesIn: "word\(index) other")?.rawPattern == "word\(index)* other*")
                        #expect(FTS5Pattern(matchingPhrase: "Word\(index) other")?.rawPattern == "\"word\(index) other\"")
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
