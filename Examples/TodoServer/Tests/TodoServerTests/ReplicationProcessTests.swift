import Foundation
import GRDBCipher
import GRDBCipherS3
import GRDBCipherTesting
import HummingbirdTesting
import NIOCore
import Testing
@testable import TodoServerApp

/// `TODOSERVER_REPLICA`: the database survives kill -9 of the server and the
/// deletion of its files, with a folder replica and an S3 one (a real S3
/// server on loopback), with a passphrase and with an envelope.
@Suite struct ReplicationProcessTests {
    /// Runs the server, posts 20 todos, kills it 1.5 s (past the lag bound)
    /// after the last acknowledgement, deletes the database files, and
    /// returns the database's path.
    private func writeThenKill(_ directory: TemporaryDirectory, environment: [String: String]) async throws -> String {
        let path = directory.file("todos.sqlite")
        var environment = environment
        environment["DATABASE_PATH"] = path
        environment["PORT"] = "0"
        let server = try ServerProcess(environment: environment)
        let port = try await server.waitForPort()
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            for index in 0..<20 {
                let response = try await client.execute(TestClient.Request(
                    "/todos", method: .post, authority: "127.0.0.1", headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"title": "todo \#(index)"}"#)))
                #expect(response.status == .created)
            }
        }
        // Every commit acknowledged more than the lag bound (1 s) ago must
        // survive.
        try await Task.sleep(for: .seconds(1.5))
        kill(server.process.processIdentifier, SIGKILL)
        _ = try await server.waitForExit()
        #expect(!server.text.contains(testPassphrase))
        for secret in environment.filter({ $0.key.contains("SECRET") }).values { #expect(!server.text.contains(secret)) }
        for suffix in ["", "-wal", "-shm", ".envelope"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return path
    }

    private func titles(_ path: String, configuration: Configuration) async throws -> [String] {
        try await DatabaseQueue(path: path, configuration: configuration).read { db in
            try String.fetchAll(db, sql: "SELECT title FROM todo ORDER BY id")
        }
    }

    /// No file under `root` holds a title.
    private func expectNoPlaintext(under root: String) throws {
        for name in try FileManager.default.subpathsOfDirectory(atPath: root) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + name))
            #expect(data.range(of: Data("todo 1".utf8)) == nil, "\(name) holds plaintext")
        }
    }

    @Test func aKilledServersDatabaseIsRestoredFromItsReplica() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replica = directory.file("replica")
        _ = try await writeThenKill(directory, environment: [
            "GRDBCIPHER_PASSPHRASE": testPassphrase, "TODOSERVER_REPLICA": "file://" + replica,
        ])
        let restored = directory.file("restored.sqlite")
        var configuration = Configuration()
        configuration.passphrase = testPassphrase
        try await DatabaseReplica(store: try FolderReplicaStore(path: replica), key: .passphrase(testPassphrase))
            .restore(to: restored, configuration: configuration)
        #expect(try await titles(restored, configuration: configuration) == (0..<20).map { "todo \($0)" })
        try expectNoPlaintext(under: replica)
    }

    /// An enveloped database replicating to S3: the key-encryption key
    /// restores the database and its envelope from the bucket.
    @Test func anEnvelopedDatabaseIsRestoredFromS3() async throws {
        let s3 = try S3TestServer()
        defer { s3.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let kek = directory.file("kek")
        try Data("the outer secret\n".utf8).write(to: URL(fileURLWithPath: kek))
        let replica = s3.url(prefix: "todos/tenant-1")
        var environment = s3.environment
        environment["GRDBCIPHER_KEK_FILE"] = kek
        environment["TODOSERVER_REPLICA"] = replica
        _ = try await writeThenKill(directory, environment: environment)

        let restored = directory.file("restored.sqlite")
        let keyEncryptionKey = try KeyEncryptionKey.passphraseFile(atPath: kek)
        try await DatabaseReplica(store: try S3ReplicaStore(url: replica, environment: s3.environment), keyEncryptionKey: keyEncryptionKey)
            .restore(to: restored)
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.unwrap(forDatabaseAt: restored, keyEncryptionKey: keyEncryptionKey).key
        #expect(try await titles(restored, configuration: configuration) == (0..<20).map { "todo \($0)" })
        try expectNoPlaintext(under: s3.bucketPath)
    }

    @Test func aReplicaNeedsAStoreItCanReachAndAnEncryptedDatabase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let s3 = try ServerProcess(environment: [
            "DATABASE_PATH": directory.file("a.sqlite"), "GRDBCIPHER_PASSPHRASE": testPassphrase, "PORT": "0",
            "TODOSERVER_REPLICA": "s3://bucket/prefix",
        ])
        #expect(try await s3.waitForExit() == 2)
        #expect(s3.text.contains("AWS_ACCESS_KEY_ID"))
        let other = try ServerProcess(environment: [
            "DATABASE_PATH": directory.file("c.sqlite"), "GRDBCIPHER_PASSPHRASE": testPassphrase, "PORT": "0",
            "TODOSERVER_REPLICA": "ftp://host/replica",
        ])
        #expect(try await other.waitForExit() == 2)
        #expect(other.text.contains("TODOSERVER_REPLICA"))
        let plaintext = try ServerProcess(environment: [
            "DATABASE_PATH": directory.file("b.sqlite"), "TODOSERVER_PLAINTEXT": "1", "PORT": "0",
            "TODOSERVER_REPLICA": "file://" + directory.file("replica"),
        ])
        #expect(try await plaintext.waitForExit() == 2)
        #expect(plaintext.text.contains("needs an encrypted database"))
    }

    /// A store that does not answer when the server starts: the server
    /// serves anyway, and replicates once the store is back.
    @Test func aStoreDownAtStartIsReachedLater() async throws {
        let s3 = try S3TestServer()
        defer { s3.stop() }
        s3.stop()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        let replica = s3.url(prefix: "late")
        var environment = s3.environment
        environment["GRDBCIPHER_PASSPHRASE"] = testPassphrase
        environment["TODOSERVER_REPLICA"] = replica
        environment["DATABASE_PATH"] = path
        environment["PORT"] = "0"
        let server = try ServerProcess(environment: environment)
        let port = try await server.waitForPort()
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            let response = try await client.execute(TestClient.Request(
                "/todos", method: .post, authority: "127.0.0.1", headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title": "todo 0"}"#)))
            #expect(response.status == .created)
        }
        try s3.restart()
        // The server tries again every 5 s; it then ships a snapshot within the lag.
        let store = try S3ReplicaStore(url: replica, environment: s3.environment)
        let deadline = ContinuousClock.now + .seconds(20)
        while try await store.names(withPrefix: "generations/").isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let restored = directory.file("restored.sqlite")
        var configuration = Configuration()
        configuration.passphrase = testPassphrase
        try await DatabaseReplica(store: store, key: .passphrase(testPassphrase)).restore(to: restored, configuration: configuration)
        #expect(try await titles(restored, configuration: configuration) == ["todo 0"])
    }
}
