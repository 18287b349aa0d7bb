import Foundation
import GRDBCipher
import HummingbirdTesting
import NIOCore
import Testing
@testable import TodoServerApp

/// The executable as a child process: its environment, the modes of its
/// files, its memory and its shutdown under clients that do not read, and
/// its data after `kill -9`.
@Suite struct ProcessHardeningTests {
    /// `/proc/<pid>/environ` shows the block the process started with; the
    /// server overwrites the secrets in it, and keeps the other variables.
    @Test func secretsAreGoneFromProcEnviron() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        let server = try ServerProcess(environment: [
            "DATABASE_PATH": path, "GRDBCIPHER_PASSPHRASE": testPassphrase, "TODOSERVER_ADMIN_TOKEN": testAdminToken,
            "PORT": "0",
        ])
        let port = try await server.waitForPort()
        let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(server.process.processIdentifier)/environ"))
        let entries = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(environ.range(of: Data(testPassphrase.utf8)) == nil, "the passphrase is in /proc/<pid>/environ")
        #expect(environ.range(of: Data(testAdminToken.utf8)) == nil, "the admin token is in /proc/<pid>/environ")
        #expect(!entries.contains { $0.hasPrefix("GRDBCIPHER_PASSPHRASE=") || $0.hasPrefix("TODOSERVER_ADMIN_TOKEN=") })
        #expect(entries.contains("DATABASE_PATH=\(path)"))
        #expect(entries.contains("PORT=0"))

        // The server still has both: it serves, and the token opens the admin routes.
        let status = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.execute(TestClient.Request(
                "/health?integrity=true", method: .get, authority: "127.0.0.1",
                headers: [.authorization: "Bearer \(testAdminToken)"])).status
        }
        #expect(status == .ok)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(!server.text.contains(testPassphrase))
        #expect(!server.text.contains(testAdminToken))
    }

    /// At the connection cap the server accepts no connection: the next one
    /// waits in the kernel's accept queue until a connection closes. (A
    /// child process: the live test framework runs the application with a
    /// configuration of its own, without the cap.)
    @Test func connectionsOverTheCapWaitForAFreeSlot() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess(environment: [
            "DATABASE_PATH": directory.file("todos.sqlite"), "GRDBCIPHER_PASSPHRASE": testPassphrase, "PORT": "0",
            "TODOSERVER_MAX_CONNECTIONS": "2",
        ])
        let port = try await server.waitForPort()
        let request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let first = try EventStreamClient(port: port, request: request)
        #expect(try await first.statusLine() == "HTTP/1.1 200 OK")
        let second = try EventStreamClient(port: port, request: request)
        #expect(try await second.statusLine() == "HTTP/1.1 200 OK")

        let third = try EventStreamClient(port: port, request: request)
        let queued = try await waitForAcceptQueue(port: port, length: 1)
        #expect(queued, "the server accepted a connection over its cap")
        #expect(third.unparsedText.isEmpty)

        first.disconnect()
        #expect(try await third.statusLine() == "HTTP/1.1 200 OK")
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// Under a umask that lets others read new files, the database, its WAL
    /// and shared-memory files, and backups are still the owner's only.
    @Test func filesAreOwnerOnly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        let secret = directory.file("secret")
        try Data(testPassphrase.utf8).write(to: URL(fileURLWithPath: secret))
        let server = try ServerProcess(
            environment: [
                "DATABASE_PATH": path, "GRDBCIPHER_PASSPHRASE_FILE": secret, "TODOSERVER_ADMIN_TOKEN": testAdminToken,
                "PORT": "0",
            ],
            umask: "022")
        let port = try await server.waitForPort()
        let backupPath = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            let created = try await client.execute(TestClient.Request(
                "/todos", method: .post, authority: "127.0.0.1", headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title": "private"}"#)))
            #expect(created.status == .created)
            let backup = try await client.execute(TestClient.Request(
                "/admin/backup", method: .post, authority: "127.0.0.1", headers: [.authorization: "Bearer \(testAdminToken)"]))
            #expect(backup.status == .created)
            return try JSONDecoder().decode(AdminTests.BackedUp.self, from: Data((backup.body ?? ByteBuffer()).readableBytesView)).path
        }
        for file in [path, path + "-wal", path + "-shm", backupPath] {
            #expect(try permissions(file) == 0o600, "\(file)")
        }
        #expect(try permissions(directory.file("backups")) == 0o700)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// Clients that never read `GET /todos/events` while the page changes:
    /// the server's memory does not grow with the commits (each stream keeps
    /// the newest page only), and SIGTERM still ends the process promptly
    /// (streams whose writes wait are closed, not waited for).
    @Test func stalledEventStreamsKeepMemoryBoundedAndDoNotHoldShutdown() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        do {
            let queue = try openQueue(path, passphrase: testPassphrase)
            try TodoDatabase.migrator.migrate(queue)
            try await seedLargePage(queue)
            try await queue.close()
        }
        let server = try ServerProcess(environment: [
            "DATABASE_PATH": path, "GRDBCIPHER_PASSPHRASE": testPassphrase, "PORT": "0",
            // Neither timeout may end the stalled streams: shutdown must.
            "TODOSERVER_WRITE_TIMEOUT": "3600", "TODOSERVER_SHUTDOWN_TIMEOUT": "3600",
        ])
        let port = try await server.waitForPort()
        let stalled = try (0..<16).map { _ in try StalledClient(port: port, path: "/todos/events?limit=500") }
        for client in stalled { try await client.waitForBytes() }
        let watcher = try EventStreamClient(port: port, path: "/todos/events?limit=1")
        _ = try await watcher.nextData()
        let before = try server.residentMemory

        let rounds = 40
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            for round in 1...rounds {
                let patched = try await client.execute(TestClient.Request(
                    "/todos/1", method: .patch, authority: "127.0.0.1", headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"title": "round \#(round)"}"#)))
                #expect(patched.status == .ok)
            }
        }
        // The watcher reads: once it has the last round, the observations
        // have seen every commit.
        while !(try await watcher.nextData()).contains("round \(rounds)") {}
        let growth = try server.residentMemory - before
        // Each of the 16 streams had 41 pages of about 400 KB to send (260 MB
        // if they were queued); keeping the newest costs a few MB per stream.
        #expect(growth < 100 << 20, "the server grew by \(growth >> 20) MB")

        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(server.text.contains("database closed"))
        withExtendedLifetime(stalled) {}
    }

    /// `scripts/crash-loop` with a few kills: every acknowledged write is
    /// there after each `kill -9`, the key opens the file (rotations
    /// included), the integrity check is clean.
    @Test func acknowledgedWritesSurviveKill9() async throws {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/crash-loop")
        let run = try ServerProcess(
            executable: "/bin/bash", arguments: [script.path],
            environment: ["TODOSERVER_BINARY": try ServerProcess.executablePath, "KILLS": "5", "ROTATE_EVERY": "2"])
        let status = try await run.waitForExit(seconds: 300)
        let transcript = run.text
        #expect(status == 0, "\(transcript)")
        #expect(transcript.contains("5 kills") && transcript.contains(" 0 lost"), "\(transcript)")
    }
}

/// The permission bits of a file.
private func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
}
