import Foundation
import GRDBCipher
import HummingbirdTesting
import NIOCore
import Testing
@testable import TodoServerApp

/// `TODOSERVER_REPLICA`: the database survives kill -9 of the server and the
/// deletion of its files.
@Suite struct ReplicationProcessTests {
    @Test func aKilledServersDatabaseIsRestoredFromItsReplica() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        let replica = directory.file("replica")
        let server = try ServerProcess(environment: [
            "DATABASE_PATH": path, "GRDBCIPHER_PASSPHRASE": testPassphrase, "PORT": "0",
            "TODOSERVER_REPLICA": "file://" + replica,
        ])
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
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }

        let restored = directory.file("restored.sqlite")
        var configuration = Configuration()
        configuration.passphrase = testPassphrase
        try await DatabaseReplica(store: try FolderReplicaStore(path: replica), key: .passphrase(testPassphrase))
            .restore(to: restored, configuration: configuration)
        let titles = try await openQueue(restored, passphrase: testPassphrase).read { db in
            try String.fetchAll(db, sql: "SELECT title FROM todo ORDER BY id")
        }
        #expect(titles == (0..<20).map { "todo \($0)" })

        // The replica holds no plaintext.
        for name in try FileManager.default.subpathsOfDirectory(atPath: replica) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: replica + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: replica + "/" + name))
            #expect(data.range(of: Data("todo 1".utf8)) == nil, "\(name) holds plaintext")
        }
    }

    @Test func aReplicaNeedsAFolderAndAnEncryptedDatabase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let s3 = try ServerProcess(environment: [
            "DATABASE_PATH": directory.file("a.sqlite"), "GRDBCIPHER_PASSPHRASE": testPassphrase, "PORT": "0",
            "TODOSERVER_REPLICA": "s3://bucket/prefix",
        ])
        #expect(try await s3.waitForExit() == 2)
        #expect(s3.text.contains("TODOSERVER_REPLICA"))
        let plaintext = try ServerProcess(environment: [
            "DATABASE_PATH": directory.file("b.sqlite"), "TODOSERVER_PLAINTEXT": "1", "PORT": "0",
            "TODOSERVER_REPLICA": "file://" + directory.file("replica"),
        ])
        #expect(try await plaintext.waitForExit() == 2)
        #expect(plaintext.text.contains("needs an encrypted database"))
    }
}
