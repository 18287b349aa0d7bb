import Foundation
import GRDBCipher
import GRDBCipherTesting
import Testing
@testable import GRDBCipherS3

/// The S3 store against a real S3 server (`rclone serve s3` on loopback):
/// its objects, its listings, its errors, and replication through it.
@Suite(.serialized) struct S3ReplicaStoreTests {
    let key = TestKey.insecureRandomRawKey()

    private func makeStore(_ server: S3TestServer, prefix: String = "app", secret: String? = nil) throws -> S3ReplicaStore {
        try S3ReplicaStore(
            bucket: server.bucket, prefix: prefix, endpoint: server.endpoint,
            credentials: .init(accessKeyID: server.accessKeyID, secretAccessKey: secret ?? server.secretAccessKey),
            timeout: .seconds(5))
    }

    /// The example of AWS's documentation of Signature Version 4 (a GET of
    /// `/test.txt` in `examplebucket` with a `Range` header).
    @Test func theSignatureIsAWSsExample() throws {
        let signer = S3Signer(
            credentials: .init(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1")
        let headers = try signer.signedHeaders(
            method: "GET", path: "/test.txt", query: [],
            headers: ["Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9"],
            bodyHash: S3Signer.emptyBodyHash, date: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(headers["authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(headers["x-amz-date"] == "20130524T000000Z")
    }

    @Test func theQueryAndPathAreEncodedAsSigV4Says() {
        #expect(S3Signer.encode("a b/c+d~e", keepingSlashes: true) == "a%20b/c%2Bd~e")
        #expect(S3Signer.encode("a/b") == "a%2Fb")
        #expect(S3Signer.canonicalQuery([("prefix", "x/y"), ("list-type", "2")]) == "list-type=2&prefix=x%2Fy")
    }

    @Test func objectsAreWrittenReadListedAndDeleted() async throws {
        let server = try S3TestServer()
        let store = try makeStore(server)
        let body = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await store.write(body, to: "generations/g1/0000000000-snapshot")
        try await store.write(Data("two".utf8), to: "generations/g1/0000000001-segment")
        try await store.write(Data("root".utf8), to: "replica.json")
        #expect(try await store.read("generations/g1/0000000000-snapshot") == body)
        #expect(try await store.read("generations/g1/missing") == nil)
        #expect(try await store.names(withPrefix: "generations/") == [
            "generations/g1/0000000000-snapshot", "generations/g1/0000000001-segment",
        ])
        #expect(try await store.names(withPrefix: "") == [
            "generations/g1/0000000000-snapshot", "generations/g1/0000000001-segment", "replica.json",
        ])
        // The prefix of the store is a folder of the bucket on the server.
        #expect(FileManager.default.fileExists(atPath: server.bucketPath + "/app/replica.json"))
        try await store.delete("generations/g1/0000000001-segment")
        try await store.delete("generations/g1/never-written")
        #expect(try await store.names(withPrefix: "generations/") == ["generations/g1/0000000000-snapshot"])
        // Another prefix of the same bucket sees none of it.
        #expect(try await makeStore(server, prefix: "other").names(withPrefix: "").isEmpty)
    }

    @Test func aListingLongerThanAPageIsRead() async throws {
        let server = try S3TestServer()
        let store = try makeStore(server)
        let names = (0..<1_050).map { String(format: "generations/g/%010d-segment", $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for slice in stride(from: 0, to: names.count, by: 150) {
                group.addTask {
                    for name in names[slice..<min(slice + 150, names.count)] { try await store.write(Data(name.utf8), to: name) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.names(withPrefix: "generations/") == names)
    }

    @Test func wrongCredentialsFailWithoutShowingTheSecret() async throws {
        let server = try S3TestServer()
        let store = try makeStore(server, secret: "not-the-secret-1234")
        let error = await #expect(throws: ReplicaError.self) {
            try await store.write(Data("x".utf8), to: "replica.json")
        }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("HTTP 403"), "\(message)")
        #expect(!message.contains("not-the-secret-1234") && !message.contains(server.secretAccessKey))
        #expect(!"\(store)".contains("not-the-secret-1234"))
        #expect(!"\(S3ReplicaStore.Credentials(accessKeyID: "id", secretAccessKey: "hidden"))".contains("hidden"))
    }

    @Test func aStoreIsMadeFromTheAWSSettings() throws {
        let store = try S3ReplicaStore(url: "s3://bucket/some/prefix/", environment: [
            "AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "eu-west-3",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
        ])
        #expect(store.bucket == "bucket" && store.prefix == "some/prefix" && store.region == "eu-west-3")
        #expect(store.endpoint.absoluteString == "http://127.0.0.1:9000" && store.addressing == .path)
        let aws = try S3ReplicaStore(url: "s3://bucket", environment: ["AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "s"])
        #expect(aws.endpoint.absoluteString == "https://s3.us-east-1.amazonaws.com" && aws.addressing == .virtualHost)
        #expect(throws: ReplicaError.store("AWS_SECRET_ACCESS_KEY is not set")) {
            try S3ReplicaStore(url: "s3://bucket", environment: ["AWS_ACCESS_KEY_ID": "id"])
        }
        #expect(throws: ReplicaError.self) { try S3ReplicaStore(url: "file:///tmp", environment: [:]) }
        #expect(throws: ReplicaError.self) { try S3ReplicaStore(url: "s3:///prefix", environment: ["AWS_ACCESS_KEY_ID": "i", "AWS_SECRET_ACCESS_KEY": "s"]) }
    }

    /// No description, debug description or mirror of a store or its
    /// credentials shows the secret; an endpoint with user information is
    /// refused without being echoed.
    @Test func noDescriptionShowsASecret() throws {
        let credentials = S3ReplicaStore.Credentials(accessKeyID: "AKID", secretAccessKey: "the-secret", sessionToken: "the-token")
        let store = try S3ReplicaStore(bucket: "b", endpoint: URL(string: "http://127.0.0.1:9")!, credentials: credentials)
        for text in [String(describing: credentials), String(reflecting: credentials), String(describing: store),
                     String(reflecting: store)]
            + [{ var dumped = ""; dump(store, to: &dumped); dump(credentials, to: &dumped); return dumped }()]
        {
            #expect(!text.contains("the-secret") && !text.contains("the-token"), "\(text)")
        }
        #expect(throws: ReplicaError.self) {
            try S3ReplicaStore(bucket: "b", endpoint: URL(string: "http://user:hunter2@127.0.0.1:9")!, credentials: credentials)
        }
        do {
            _ = try S3ReplicaStore(bucket: "b", endpoint: URL(string: "http://user:hunter2@127.0.0.1:9")!, credentials: credentials)
        } catch {
            #expect(!"\(error)".contains("hunter2"))
        }
    }

    // MARK: Replication through S3

    private func makePool(_ dir: TemporaryDatabaseDirectory) throws -> DatabasePool {
        let dbPool = try DatabasePool(path: dir.path(for: "db.sqlite"), configuration: key.configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, note TEXT)") }
        return dbPool
    }

    private func insert(_ dbPool: DatabasePool, _ range: Range<Int>) async throws {
        try await dbPool.write { db in
            for index in range {
                try db.execute(sql: "INSERT INTO t(id, note) VALUES (?, ?)", arguments: [index, "secret note \(index)"])
            }
        }
    }

    private func shellIDs(_ path: String) throws -> [Int] {
        try SQLCipherShell.run(path, key: key, script: "SELECT id FROM t ORDER BY id;")
            .split(separator: "\n").compactMap { Int($0) }
    }

    private var options: DatabaseReplicator.Options {
        var options = DatabaseReplicator.Options()
        options.pollInterval = .milliseconds(20)
        options.checkpointSize = 16 << 10
        return options
    }

    @Test func aDatabaseReplicatesToS3AndRestoresFromIt() async throws {
        let server = try S3TestServer()
        let dir = try TemporaryDatabaseDirectory()
        let dbPool = try makePool(dir)
        // Through the AWS settings, as the example server and the tool make it.
        let store = try S3ReplicaStore(url: server.url(prefix: "tenants/7"), environment: server.environment)
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options)
        try await insert(dbPool, 0..<50)
        try await replicator.sync()
        let middle = Date()
        try await Task.sleep(for: .milliseconds(50))
        for batch in 1..<6 {
            try await insert(dbPool, (batch * 50)..<(batch * 50 + 50))
            try await replicator.sync()
        }
        await replicator.stop()
        #expect(replicator.status.lastError == nil)

        let replica = DatabaseReplica(store: store, key: key.databaseKey)
        let latest = dir.path(for: "latest.sqlite")
        try await replica.restore(to: latest, configuration: key.configuration)
        #expect(try shellIDs(latest) == Array(0..<300))
        let earlier = dir.path(for: "earlier.sqlite")
        try await replica.restore(to: earlier, at: middle, configuration: key.configuration)
        #expect(try shellIDs(earlier) == Array(0..<50))

        // What the server keeps on its disk is ciphertext and metadata.
        let files = FileManager.default.enumerator(atPath: server.bucketPath)!.compactMap { $0 as? String }
        #expect(files.count >= 3)
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: server.bucketPath + "/" + file, isDirectory: &isDirectory),
                  !isDirectory.boolValue else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: server.bucketPath + "/" + file))
            #expect(data.range(of: Data("secret note".utf8)) == nil, "\(file) holds plaintext")
            #expect(data.range(of: Data("SQLite format 3".utf8)) == nil, "\(file) holds a plaintext header")
        }

        // An object altered in the server's folder is caught, and no output is left.
        let segment = try #require(files.sorted().last { $0.contains("-segment-") })
        var data = try Data(contentsOf: URL(fileURLWithPath: server.bucketPath + "/" + segment))
        data[200] ^= 0x40
        try data.write(to: URL(fileURLWithPath: server.bucketPath + "/" + segment))
        let altered = dir.path(for: "altered.sqlite")
        await #expect(throws: ReplicaError.self) {
            try await replica.restore(to: altered, configuration: key.configuration)
        }
        #expect(!FileManager.default.fileExists(atPath: altered))
    }

    /// The server down for a while: the replicator reports the failure, the
    /// WAL keeps the commits, and everything reaches the store once it is back.
    @Test func aStoreThatIsDownForAWhileLosesNothing() async throws {
        let server = try S3TestServer()
        let dir = try TemporaryDatabaseDirectory()
        let dbPool = try makePool(dir)
        let store = try makeStore(server)
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options)
        try await insert(dbPool, 0..<20)
        try await replicator.sync()
        server.stop()
        try await insert(dbPool, 20..<40)
        await #expect(throws: ReplicaError.self) { try await replicator.sync() }
        #expect(replicator.status.lastError?.contains("the replica store failed") == true)
        try server.restart()
        try await insert(dbPool, 40..<60)
        try await replicator.sync()
        await replicator.stop()
        #expect(replicator.status.lastError == nil)
        let restored = dir.path(for: "restored.sqlite")
        try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: restored, configuration: key.configuration)
        #expect(try shellIDs(restored) == Array(0..<60))
    }
}
