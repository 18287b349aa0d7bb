import Foundation
import Testing
import GRDBCipherTesting

@Suite struct RawKeyTests {
    static let hexKey = "2DD29CA851E7B56E4697B0E1F08507293D761A05CE4D1B628663F411A8086D99"

    /// A file the shell keyed with a raw key: no key derivation.
    func makeRawKeyDatabase(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("raw.sqlite")
        try SQLCipherShell.run(path, """
            PRAGMA key = "x'\(Self.hexKey)'";
            CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO player(name) VALUES ('Arthur');
            """)
        return path
    }

    @Test func opensAFileKeyedWithARawKey() throws {
        let directory = try TemporaryDirectory()
        let path = try makeRawKeyDatabase(in: directory)

        let result = try Tool.run(
            ["sql", path, "SELECT name FROM player", "--raw-key", "--format", "list"],
            environment: ["GRDBCIPHER_PASSPHRASE": "x'\(Self.hexKey.lowercased())'"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Arthur\n", "\(result)")
        #expect(!result.stderr.contains(Self.hexKey) && !result.stdout.contains(Self.hexKey))

        // The same text as a passphrase derives another key.
        let asPassphrase = try Tool.run(
            ["sql", path, "SELECT 1"], environment: ["GRDBCIPHER_PASSPHRASE": Self.hexKey])
        #expect(asPassphrase.status == 3, "\(asPassphrase)")
    }

    @Test func rekeysFromARawKeyToAPassphrase() throws {
        let directory = try TemporaryDirectory()
        let path = try makeRawKeyDatabase(in: directory)

        let result = try Tool.run(
            ["rekey", path, "--raw-key"],
            environment: ["GRDBCIPHER_PASSPHRASE": Self.hexKey, "GRDBCIPHER_NEW_PASSPHRASE": Secrets.new])
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(path, keyPragma(Secrets.new)) == 1)
    }

    @Test func aMalformedRawKeyIsAUsageErrorThatDoesNotQuoteIt() throws {
        let directory = try TemporaryDirectory()
        let path = try makeRawKeyDatabase(in: directory)
        let malformed = String(Self.hexKey.dropLast(2)) + "zz"

        let result = try Tool.run(["info", path, "--raw-key"], environment: ["GRDBCIPHER_PASSPHRASE": malformed])
        #expect(result.status == 64, "\(result)")
        #expect(!result.stderr.contains(malformed), "\(result)")
    }
}
