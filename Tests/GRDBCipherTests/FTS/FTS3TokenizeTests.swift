import Foundation
import Testing
@testable import GRDBCipher

/// `FTS3.tokenize(_:withTokenizer:)`: the tokens SQLite's FTS3 tokenizers
/// make of a string (Compat/.transcripts/grdb/fts3-tokenize-patterns.txt).
@Suite struct FTS3TokenizeTests {
    @Test func simpleFoldsASCIIOnlyAndKeepsDiacritics() throws {
        #expect(try FTS3.tokenize("SQLite database, Gustave Doré!") == ["sqlite", "database", "gustave", "doré"])
    }

    @Test func simpleIsTheDefault() throws {
        #expect(try FTS3.tokenize("Doré") == FTS3.tokenize("Doré", withTokenizer: .simple))
        #expect(try FTS3.tokenize("ÉLÉGANCE") == ["ÉlÉgance"], "simple folds ASCII letters only")
    }

    @Test func porterStems() throws {
        #expect(try FTS3.tokenize("SQLite databases frustrated", withTokenizer: .porter) == ["sqlite", "databas", "frustrat"])
    }

    @Test func unicode61FoldsCaseAndRemovesDiacritics() throws {
        #expect(try FTS3.tokenize("Gustave Doré JÉRÔME", withTokenizer: .unicode61()) == ["gustave", "dore", "jerome"])
    }

    @Test func unicode61RemoveAlsoRemovesStackedDiacritics() throws {
        // Letters with two diacritics keep them with remove_diacritics=1.
        #expect(try FTS3.tokenize("Gustave Doré ấ ǖ", withTokenizer: .unicode61()) == ["gustave", "dore", "ấ", "ǖ"])
        #expect(try FTS3.tokenize("Gustave Doré ấ ǖ", withTokenizer: .unicode61(diacritics: .remove)) == ["gustave", "dore", "a", "u"],
                "remove_diacritics=2 reached the tokenizer")
    }

    @Test func unicode61KeepKeepsDiacritics() throws {
        #expect(try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61(diacritics: .keep)) == ["gustave", "doré"])
    }

    @Test func unicode61TokenCharacters() throws {
        #expect(try FTS3.tokenize("e-mail a.b", withTokenizer: .unicode61(tokenCharacters: ["-"])) == ["e-mail", "a", "b"])
    }

    @Test func unicode61Separators() throws {
        #expect(try FTS3.tokenize("aXb-c d.e#f", withTokenizer: .unicode61(separators: ["X", "-"], tokenCharacters: [".", "#"]))
                == ["a", "b", "c", "d.e#f"])
    }

    @Test func emptyStringHasNoToken() throws {
        #expect(try FTS3.tokenize("") == [])
        #expect(try FTS3.tokenize("  ,;! ") == [], "punctuation only: no token")
    }

    @Test func unknownTokenizerThrows() throws {
        let error = #expect(throws: DatabaseError.self) {
            try FTS3.tokenize("hello", withTokenizer: FTS3TokenizerDescriptor("nope"))
        }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "unknown tokenizer: nope")
    }
}
