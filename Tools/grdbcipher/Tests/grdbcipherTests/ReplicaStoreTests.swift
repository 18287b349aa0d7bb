import Foundation
import GRDBCipher
import GRDBCipherS3
import GRDBCipherTesting
import Testing

/// `restore` and `generations` on an S3 replica (a real S3 server on
/// loopback) and on the replica of an enveloped database.
@Suite struct ReplicaStoreTests {
    private func replicate(_ dbPool: DatabasePool, to store: any ReplicaStore) async throws {
        var options = DatabaseReplicator.Options()
        options.pollInterval = .milliseconds(10)
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options)
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('a'), ('b')") }
        try await replicator.sync()
        await replicator.stop()
        try await dbPool.close()
    }

    @Test func restoreReadsAnS3Replica() async throws {
        let server = try S3TestServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let path = try makeShellDatabase(in: directory)
        var configuration = Configuration()
        configuration.passphrase = Secrets.right
        let replica = server.url(prefix: "apps/one")
        try await replicate(
            try DatabasePool(path: path, configuration: configuration),
            to: try S3ReplicaStore(url: replica, environment: server.environment))

        let environment = passphraseEnvironment().merging(server.environment) { $1 }
        let listing = try Tool.run(["generations", replica], environment: environment)
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains("restorable: "), "\(listing)")
        let output = directory.path("restored.sqlite")
        let restored = try Tool.run(["restore", replica, output], environment: environment)
        #expect(restored.status == 0, "\(restored)")
        #expect(try SQLCipherShell.playerCount(output, keyPragma(Secrets.right)) == 5)
        expectNoSecret(in: restored)
        #expect(!restored.stdout.contains(server.secretAccessKey) && !restored.stderr.contains(server.secretAccessKey))

        // Without its credentials, the store is not reached: a usage error.
        let unconfigured = try Tool.run(["restore", replica, directory.path("other.sqlite")], environment: passphraseEnvironment())
        #expect(unconfigured.status == 64, "\(unconfigured)")
        var wrongSecret = environment
        wrongSecret["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        let refused = try Tool.run(["restore", replica, directory.path("other.sqlite")], environment: wrongSecret)
        #expect(refused.status == 1, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("other.sqlite")))
    }

    @Test func restoreBringsBackAnEnvelopedDatabaseAndItsEnvelope() async throws {
        let directory = try TemporaryDirectory()
        let kekFile = directory.path("kek")
        try "\(Secrets.right)\n".write(toFile: kekFile, atomically: true, encoding: .utf8)
        let path = directory.path("db.sqlite")
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.create(
            forDatabaseAt: path, keyEncryptionKey: try KeyEncryptionKey.passphraseFile(atPath: kekFile))
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try await dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player(name) VALUES ('x')")
        }
        let replica = directory.path("replica")
        try await replicate(dbPool, to: try FolderReplicaStore(path: replica))
        for suffix in ["", "-wal", "-shm", ".envelope"] { try? FileManager.default.removeItem(atPath: path + suffix) }

        let environment = ["GRDBCIPHER_KEK_FILE": kekFile]
        let listing = try Tool.run(["generations", replica], environment: environment)
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains(", envelope"), "\(listing)")
        let output = directory.path("restored.sqlite")
        let restored = try Tool.run(["restore", "file://" + replica, output], environment: environment)
        #expect(restored.status == 0, "\(restored)")
        #expect(FileManager.default.fileExists(atPath: output + ".envelope"))
        let count = try Tool.run(["sql", output, "SELECT count(*) FROM player"], environment: environment)
        #expect(count.status == 0, "\(count)")
        #expect(count.stdout.contains("3"), "\(count)")
        expectNoSecret(in: restored)

        let again = try Tool.run(["restore", replica, output], environment: environment)
        #expect(again.status == 4, "\(again)")
        let blocked = directory.path("blocked.sqlite")
        _ = try write("keep", to: blocked + ".envelope")
        let refused = try Tool.run(["restore", replica, blocked], environment: environment)
        #expect(refused.status == 4, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: blocked))

        let otherKEK = directory.path("other-kek")
        try "\(Secrets.wrong)\n".write(toFile: otherKEK, atomically: true, encoding: .utf8)
        let wrong = try Tool.run(["restore", replica, directory.path("wrong.sqlite")], environment: ["GRDBCIPHER_KEK_FILE": otherKEK])
        #expect(wrong.status == 3, "\(wrong)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("wrong.sqlite")))
    }
}
