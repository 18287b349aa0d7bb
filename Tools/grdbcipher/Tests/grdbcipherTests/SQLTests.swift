import Foundation
import GRDBCipherTesting
import Testing

@Suite struct SQLTests {
    @Test func printsRowsAsATable() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)

        let result = try Tool.run(
            ["sql", path, "SELECT id, name, NULL AS missing FROM player WHERE id <= 2 ORDER BY id"],
            environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            +----+---------+---------+
            | id | name    | missing |
            +----+---------+---------+
            | 1  | player1 | NULL    |
            | 2  | player2 | NULL    |
            +----+---------+---------+

            """, "\(result)")
    }

    @Test func printsRowsAsJSONWithArguments() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)

        let result = try Tool.run(
            ["sql", path, "SELECT id, name, score FROM player WHERE id = ? OR name = ? ORDER BY id",
             "--arg", "1", "--arg", "player3", "--format", "json"],
            environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.count == 2, "\(result)")
        #expect(rows?.first?["name"] as? String == "player1")
        #expect(rows?.last?["score"] as? Int == 30)
    }

    @Test func aWriteIsCommitted() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)

        let result = try Tool.run(
            ["sql", path, "INSERT INTO player(name, score) VALUES (?, 1)", "--arg", "Zoe"],
            environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(path, keyPragma(Secrets.right)) == 4)
    }

    @Test func readonlyRefusesAWriteAndLeavesTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(
            ["sql", path, "DELETE FROM player", "--readonly"], environment: passphraseEnvironment())
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("readonly"), "\(result)")
        expectUnchanged(since: before)
    }

    @Test func severalStatementsAreAUsageError() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(
            ["sql", path, "DELETE FROM player; SELECT 1"], environment: passphraseEnvironment())
        #expect(result.status == 64, "\(result)")
        expectUnchanged(since: before)
    }

    @Test func aBadStatementIsStatus1() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let result = try Tool.run(["sql", path, "SELECT * FROM nowhere"], environment: passphraseEnvironment())
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("no such table"), "\(result)")
    }

    @Test func aPlaintextFileNeedsNoPassphrase() throws {
        let directory = try TemporaryDirectory()
        let path = try makePlaintextDatabase(in: directory)
        let result = try Tool.run(["sql", path, "SELECT name FROM player ORDER BY id", "--format", "list"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Arthur\nBarbara\n", "\(result)")
    }
}
