import Foundation
import GRDBCipher
import HummingbirdTesting
import NIOCore
import Testing
@testable import TodoServerApp

/// The `TodoServer` executable: exit statuses, secrets, graceful shutdown.
@Suite struct ProcessTests {
    @Test func wrongKeyExitsWithStatus3AndLeavesTheFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        do {
            let queue = try openQueue(path, passphrase: testPassphrase)
            try await queue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
            try await queue.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let secret = directory.file("secret")
        let wrong = "definitely-the-wrong-passphrase"
        try Data(wrong.utf8).write(to: URL(fileURLWithPath: secret))

        let server = try ServerProcess(environment: ["DATABASE_PATH": path, "GRDBCIPHER_PASSPHRASE_FILE": secret, "PORT": "0"])
        #expect(try await server.waitForExit() == 3)
        #expect(server.text.contains("cannot open \(path): wrong passphrase"))
        #expect(!server.text.contains(wrong))
        #expect(!server.text.contains("listening on http"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["secret", "todos.sqlite"])
    }

    @Test func missingKeyExitsWithStatus2() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess(environment: ["DATABASE_PATH": directory.file("todos.sqlite"), "PORT": "0"])
        #expect(try await server.waitForExit() == 2)
        #expect(server.text.contains("GRDBCIPHER_PASSPHRASE_FILE"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("todos.sqlite")))
    }

    /// SIGTERM while a write waits for a lock another process holds: the
    /// request still completes, then the server closes the pool and exits 0.
    @Test func sigtermFinishesTheRequestInFlight() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        let server = try ServerProcess(environment: [
            "DATABASE_PATH": path, "GRDBCIPHER_PASSPHRASE": testPassphrase, "PORT": "0", "LOG_LEVEL": "debug",
        ])
        let port = try await server.waitForPort()

        // Another connection holds the write lock: the server's next write waits (busy timeout).
        var blockerConfig = Configuration()
        blockerConfig.passphrase = testPassphrase
        blockerConfig.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: path, configuration: blockerConfig)
        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }

        let status = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            let request = Task {
                try await client.execute(TestClient.Request(
                    "/todos", method: .post, authority: "127.0.0.1", headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"title": "in flight"}"#)))
            }
            // The server logs the request when it starts handling it: from
            // then on it is in flight (its write waits for the lock).
            let deadline = ContinuousClock.now + .seconds(30)
            while !server.text.contains("hb.request.method=POST"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.text.contains("hb.request.method=POST"), "the request never reached the server")
            try await Task.sleep(for: .milliseconds(100))
            kill(server.process.processIdentifier, SIGTERM)
            try await Task.sleep(for: .milliseconds(500))
            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
            return try await request.value.status
        }
        #expect(status == .created)
        #expect(try await server.waitForExit() == 0)
        #expect(server.text.contains("database closed"))
        #expect(!server.text.contains(testPassphrase))
        try await blocker.close()
        let queue = try openQueue(path, passphrase: testPassphrase)
        #expect(try await queue.read { db in try Todo.fetchAll(db) } == [Todo(id: 1, title: "in flight", completed: false)])
    }

    /// SIGTERM while a client listens to `GET /todos/events`: the stream
    /// ends, so that the shutdown does not wait for it, then the server
    /// closes the pool and exits 0.
    @Test func sigtermEndsTheEventStreams() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess(environment: [
            "DATABASE_PATH": directory.file("todos.sqlite"), "GRDBCIPHER_PASSPHRASE": testPassphrase, "PORT": "0",
        ])
        let port = try await server.waitForPort()
        let stream = try EventStreamClient(port: port, path: "/todos/events")
        #expect(try await stream.nextData() == "[]")
        kill(server.process.processIdentifier, SIGTERM)
        try await stream.waitForEnd()
        #expect(try await server.waitForExit() == 0)
        #expect(server.text.contains("database closed"))
    }
}

/// An enveloped database: `GRDBCIPHER_KEK_FILE` instead of a passphrase.
@Suite struct EnvelopeProcessTests {
    @Test func aFreshPathGetsAnEnvelopeAndAWrongKeyEncryptionKeyIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        let kek = directory.file("kek")
        try Data("the outer secret\n".utf8).write(to: URL(fileURLWithPath: kek))

        let server = try ServerProcess(environment: ["DATABASE_PATH": path, "GRDBCIPHER_KEK_FILE": kek, "PORT": "0"])
        _ = try await server.waitForPort()
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(FileManager.default.fileExists(atPath: path + ".envelope"))
        #expect(try DatabaseFile.isEncrypted(atPath: path))
        let key = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: .passphraseFile(atPath: kek)).key
        var configuration = Configuration()
        configuration.key = key
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try await queue.read { db in try db.tableExists("todo") })
        try await queue.close()

        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let envelopeBefore = try Data(contentsOf: URL(fileURLWithPath: path + ".envelope"))
        let wrong = directory.file("wrong-kek")
        try Data("not the outer secret\n".utf8).write(to: URL(fileURLWithPath: wrong))
        let refused = try ServerProcess(environment: ["DATABASE_PATH": path, "GRDBCIPHER_KEK_FILE": wrong, "PORT": "0"])
        #expect(try await refused.waitForExit() == 3)
        #expect(!refused.text.contains("listening on http"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".envelope")) == envelopeBefore)
    }
}
