import Foundation
import GRDBCipherTesting
import Testing

@Suite struct VerifyTests {
    @Test func anIntactFileVerifies() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(["verify", path], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "cipher integrity: ok\nintegrity: ok\n", "\(result)")
        expectUnchanged(since: before)
    }

    @Test func anAlteredPageIsReportedWithStatus2() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        var bytes = try fileBytes(path)
        #expect(bytes.count >= 8192)
        bytes[4096 + 200] ^= 0xFF   // inside page 2, the player table
        try bytes.write(to: URL(fileURLWithPath: path))
        let damaged = try FileSnapshot.database(path)

        let result = try Tool.run(["verify", path], environment: passphraseEnvironment())
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("page 2"), "\(result)")
        #expect(result.stderr.contains("damaged"), "\(result)")
        expectUnchanged(since: damaged)
    }

    @Test func aWrongPassphraseIsStatus3() throws {
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        let before = try FileSnapshot.database(path)

        let result = try Tool.run(["verify", path], environment: passphraseEnvironment(Secrets.wrong))
        #expect(result.status == 3, "\(result)")
        expectNoSecret(in: result)
        expectUnchanged(since: before)
    }

    @Test func aPlaintextFileGetsSQLitesCheckOnly() throws {
        let directory = try TemporaryDirectory()
        let path = try makePlaintextDatabase(in: directory)

        let result = try Tool.run(["verify", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("not encrypted (skipped)"), "\(result)")
        #expect(result.stdout.contains("integrity: ok"), "\(result)")
    }
}
