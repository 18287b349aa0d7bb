import Foundation
import GRDBCipher
import GRDBCipherTesting
import Testing

/// `restore` and `generations` on a replica written by the library's
/// replicator, checked with the sqlcipher shell.
@Suite struct ReplicaTests {
    /// A replica of a database written by the shell: 3 players in its first
    /// snapshot, 2 more shipped after `middle`.
    private func makeReplica(in directory: TemporaryDirectory) async throws -> (replica: String, middle: Date) {
        let path = try makeShellDatabase(in: directory)
        var configuration = Configuration()
        configuration.passphrase = Secrets.right
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        let replica = directory.path("replica")
        var options = DatabaseReplicator.Options()
        options.pollInterval = .milliseconds(10)
        let replicator = try await DatabaseReplicator.start(
            dbPool, to: try FolderReplicaStore(path: replica), key: .passphrase(Secrets.right), options: options)
        try await replicator.sync()
        let middle = Date()
        try await Task.sleep(for: .milliseconds(20))
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('a'), ('b')") }
        try await replicator.sync()
        await replicator.stop()
        try await dbPool.close()
        return (replica, middle)
    }

    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test func restoreRebuildsTheLatestStateAndAnEarlierOne() async throws {
        let directory = try TemporaryDirectory()
        let (replica, middle) = try await makeReplica(in: directory)

        let latest = directory.path("latest.sqlite")
        let result = try Tool.run(["restore", "file://" + replica, latest], environment: passphraseEnvironment())
        #expect(result.status == 0, "\(result)")
        #expect(try SQLCipherShell.playerCount(latest, keyPragma(Secrets.right)) == 5)
        expectNoSecret(in: result)

        let earlier = directory.path("earlier.sqlite")
        let atMiddle = try Tool.run(["restore", replica, earlier, "--at", Self.iso8601(middle)], environment: passphraseEnvironment())
        #expect(atMiddle.status == 0, "\(atMiddle)")
        #expect(try SQLCipherShell.playerCount(earlier, keyPragma(Secrets.right)) == 3)

        let listing = try Tool.run(["generations", replica], environment: passphraseEnvironment())
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains("generation "), "\(listing)")
        #expect(listing.stdout.contains("restorable: "), "\(listing)")
    }

    @Test func restoreRefusesAnExistingOutputAWrongKeyAndAnAlteredReplica() async throws {
        let directory = try TemporaryDirectory()
        let (replica, _) = try await makeReplica(in: directory)
        let existing = try write("keep", to: directory.path("existing.sqlite"))
        let refused = try Tool.run(["restore", replica, existing], environment: passphraseEnvironment())
        #expect(refused.status == 4, "\(refused)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")

        let output = directory.path("out.sqlite")
        let wrong = try Tool.run(["restore", replica, output], environment: passphraseEnvironment(Secrets.wrong))
        #expect(wrong.status == 3, "\(wrong)")
        expectNoSecret(in: wrong)

        let segments = try FileManager.default.subpathsOfDirectory(atPath: replica).filter { $0.contains("-segment-") }
        let victim = replica + "/" + (try #require(segments.first))
        var bytes = try fileBytes(victim)
        bytes[100] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: victim))
        let altered = try Tool.run(["restore", replica, output], environment: passphraseEnvironment())
        #expect(altered.status == 2, "\(altered)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let badTime = try Tool.run(["restore", replica, output, "--at", "yesterday"], environment: passphraseEnvironment())
        #expect(badTime.status == 64, "\(badTime)")
        let s3 = try Tool.run(["restore", "s3://bucket/prefix", output], environment: passphraseEnvironment())
        #expect(s3.status == 64, "\(s3)")
    }
}
