import Foundation
import GRDBCipher
import GRDBCipherTesting
import Testing
@testable import GRDBCipherS3

/// The S3 store behind a proxy that forwards each request to a real S3
/// server (`rclone serve s3`), or answers HTTP 500, or never answers, as a
/// mode file says: the replicator reports each failure, the commits wait,
/// and everything reaches the store once it answers again.
@Suite(.serialized) struct S3FaultProxyTests {
    let key = TestKey.insecureRandomRawKey()

    /// A forwarding HTTP proxy in Python's standard library. It prints its
    /// port, then reads the mode file for each request: `pass`, `500`, or
    /// `hang` (no answer for 30 s).
    static let proxyScript = #"""
    import http.client, http.server, socketserver, sys, time
    upstream_port, mode_file = int(sys.argv[1]), sys.argv[2]
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def handle_any(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                body = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0], 16)
                    chunk = self.rfile.read(size + 2)[:size]
                    if size == 0:
                        break
                    body += chunk
            else:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            mode = open(mode_file).read().strip()
            if mode == "hang":
                time.sleep(30)
                return
            if mode == "500":
                payload = b"<Error><Code>InternalError</Code></Error>"
                self.send_response(500)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                return
            connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=30)
            connection.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for name, value in self.headers.items():
                if name.lower() not in ("transfer-encoding", "content-length", "expect", "connection"):
                    connection.putheader(name, value)
            connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            data = response.read()
            self.send_response(response.status)
            for name, value in response.getheaders():
                if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        do_GET = do_PUT = do_DELETE = do_HEAD = do_POST = handle_any
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#

    struct ProxyError: Error {}

    final class Proxy {
        let process = Process()
        let modeFile: String
        var port = 0

        init(upstream: Int, directory: TemporaryDatabaseDirectory) throws {
            modeFile = directory.path(for: "proxy-mode")
            try "pass".write(toFile: modeFile, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", S3FaultProxyTests.proxyScript, String(upstream), modeFile]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw ProxyError() }
                line.append(chunk)
            }
            port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }

        func set(_ mode: String) throws {
            try mode.write(toFile: modeFile, atomically: true, encoding: .utf8)
        }

        deinit {
            // SIGKILL: its threads may be asleep in a `hang` answer.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func insert(_ dbPool: DatabasePool, _ range: Range<Int>) async throws {
        try await dbPool.write { db in
            for index in range { try db.execute(sql: "INSERT INTO t(id) VALUES (?)", arguments: [index]) }
        }
    }

    @Test func errorsAndTimeoutsOfTheStoreDelayShippingAndLoseNothing() async throws {
        let server = try S3TestServer()
        defer { server.stop() }
        let dir = try TemporaryDatabaseDirectory()
        let proxy = try Proxy(upstream: server.port, directory: dir)
        let credentials = S3ReplicaStore.Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey)
        let store = try S3ReplicaStore(
            bucket: server.bucket, prefix: "faults", endpoint: URL(string: "http://127.0.0.1:\(proxy.port)")!,
            credentials: credentials, timeout: .seconds(2))
        let dbPool = try DatabasePool(path: dir.path(for: "db.sqlite"), configuration: key.configuration)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)") }
        var options = DatabaseReplicator.Options()
        options.pollInterval = .milliseconds(20)
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options)
        try await insert(dbPool, 0..<10)
        try await replicator.sync()

        try proxy.set("500")
        try await insert(dbPool, 10..<20)
        await #expect(throws: ReplicaError.self) { try await replicator.sync() }
        #expect(replicator.status.lastError?.contains("HTTP 500") == true, "\(replicator.status.lastError ?? "")")
        try proxy.set("hang")
        try await insert(dbPool, 20..<30)
        await #expect(throws: ReplicaError.self) { try await replicator.sync() }
        #expect(replicator.status.lag > .zero)

        try proxy.set("pass")
        try await insert(dbPool, 30..<40)
        try await replicator.sync()
        #expect(replicator.status.lastError == nil)
        await replicator.stop()
        try await dbPool.close()

        // Read straight from the server, without the proxy.
        let direct = try S3ReplicaStore(
            bucket: server.bucket, prefix: "faults", endpoint: server.endpoint, credentials: credentials)
        let restored = dir.path(for: "restored.sqlite")
        try await DatabaseReplica(store: direct, key: key.databaseKey).restore(to: restored)
        let ids = try SQLCipherShell.run(restored, key: key, script: "SELECT id FROM t ORDER BY id;")
            .split(separator: "\n").compactMap { Int($0) }
        #expect(ids == Array(0..<40))
    }
}
