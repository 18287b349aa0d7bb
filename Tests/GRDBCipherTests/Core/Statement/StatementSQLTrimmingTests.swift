import Foundation
import Testing
@testable import GRDBCipher

/// The SQL shown by statements, errors and traces drops the white space,
/// line breaks and semicolons around a statement; the byte-wise fast path
/// must trim exactly as Foundation's white space does.
@Suite struct StatementSQLTrimmingTests {
    static let samples: [String] = [
        "SELECT 1",
        "  SELECT 1;  ",
        "\n\t SELECT 1;\r\n;",
        ";;;",
        "",
        "   ",
        "SELECT 'é'",
        "  SELECT 'é' ;",
        "\u{00A0}SELECT 1\u{00A0}",           // no-break spaces: Unicode white space
        "\u{3000} SELECT 1 ;\u{2028}",        // ideographic space, line separator
        "SELECT 'x\u{00A0}'",                 // white space inside a literal stays
        "é",
        " é ",
        "SELECT 1 -- comment\n",
        "\u{0B}\u{0C}SELECT 1\u{0B}\u{0C}",   // vertical tab, form feed
    ]

    @Test(arguments: samples)
    func trimsAsFoundationDoes(_ sql: String) {
        let separators = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";"))
        #expect(sql.trimmedSQLStatement == sql.trimmingCharacters(in: separators))
    }

    @Test func aStatementShowsItsTrimmedSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let statement = try db.makeStatement(sql: " \n SELECT 1 ; ")
            #expect(statement.sql == "SELECT 1")
        }
    }
}
