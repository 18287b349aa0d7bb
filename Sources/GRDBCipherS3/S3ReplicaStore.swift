import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDBCipher

/// A replica store in S3-compatible object storage (AWS S3, MinIO, Ceph
/// RGW, R2, `rclone serve s3`...), through S3's REST API signed with
/// Signature Version 4.
///
/// The store receives SQLCipher's ciphertext and authenticated metadata
/// only (see ``DatabaseReplica``); its credentials never appear in errors or
/// descriptions.
///
/// ```swift
/// // AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL
/// let store = try S3ReplicaStore(url: "s3://backups/app")
/// let replicator = try await DatabaseReplicator.start(dbPool, to: store)
/// ```
public struct S3ReplicaStore: ReplicaStore, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The credentials of requests. Their descriptions and mirror never
    /// show the secret or the session token.
    public struct Credentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The access key ID (`AWS_ACCESS_KEY_ID`).
        public var accessKeyID: String
        /// The secret access key (`AWS_SECRET_ACCESS_KEY`).
        public var secretAccessKey: String
        /// The session token of temporary credentials (`AWS_SESSION_TOKEN`).
        public var sessionToken: String?

        /// Credentials from their parts.
        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }

        /// Says which access key, never the secret.
        public var description: String { "Credentials(accessKeyID: \(accessKeyID), secret: redacted)" }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// The access key ID only: `dump` and debuggers show no secret.
        public var customMirror: Mirror { Mirror(self, children: ["accessKeyID": accessKeyID], displayStyle: .struct) }
    }

    /// How a bucket is named in a request's URL.
    public enum Addressing: Sendable {
        /// `https://endpoint/bucket/name`: MinIO, Ceph, rclone and most
        /// S3-compatible stores.
        case path
        /// `https://bucket.endpoint/name`: AWS S3's default.
        case virtualHost
    }

    /// The bucket.
    public let bucket: String
    /// The prefix of every object name of the replica, without a trailing
    /// slash; empty for the bucket's root.
    public let prefix: String
    /// The endpoint, such as `https://s3.eu-west-1.amazonaws.com` or
    /// `http://127.0.0.1:9000`.
    public let endpoint: URL
    /// The region requests are signed for.
    public let region: String
    /// How the bucket is named in URLs.
    public let addressing: Addressing
    private let signer: S3Signer
    private let session: URLSession
    private let attempts: Int

    /// A store in `bucket`, under `prefix`.
    ///
    /// - parameters:
    ///   - endpoint: nil for AWS S3 in `region`.
    ///   - addressing: nil for path-style with a custom endpoint, and
    ///     virtual-hosted style on AWS.
    ///   - timeout: the limit of one request; a request that fails with a
    ///     5xx status or a network error is tried up to three times.
    /// - throws: ``ReplicaError/store(_:)`` for an empty bucket name or an
    ///   endpoint that is not an http or https URL.
    public init(
        bucket: String, prefix: String = "", endpoint: URL? = nil, region: String = "us-east-1",
        credentials: Credentials, addressing: Addressing? = nil, timeout: Duration = .seconds(30)
    ) throws {
        guard !bucket.isEmpty, !bucket.contains("/") else { throw ReplicaError.store("not a bucket name: \(bucket)") }
        let resolved = endpoint ?? URL(string: "https://s3.\(region).amazonaws.com")!
        guard resolved.user == nil, resolved.password == nil else {
            // Not echoed: its user information may be a secret.
            throw ReplicaError.store("the endpoint holds user information: give credentials through AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        guard let scheme = resolved.scheme, scheme == "http" || scheme == "https", resolved.host != nil else {
            throw ReplicaError.store("not an http or https endpoint: \(resolved.absoluteString)")
        }
        self.bucket = bucket
        self.prefix = prefix.split(separator: "/").joined(separator: "/")
        self.endpoint = resolved
        self.region = region
        self.addressing = addressing ?? (endpoint == nil ? .virtualHost : .path)
        self.signer = S3Signer(credentials: credentials, region: region)
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        self.session = URLSession(configuration: configuration)
        self.attempts = 3
    }

    /// The store of `s3://bucket/prefix`, with the standard AWS settings of
    /// `environment`: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN` (optional), `AWS_REGION` (or
    /// `AWS_DEFAULT_REGION`; default `us-east-1`) and `AWS_ENDPOINT_URL`
    /// (optional: AWS S3 when absent).
    ///
    /// - throws: ``ReplicaError/store(_:)`` for a URL that is not `s3://`,
    ///   or missing credentials (the message names the variable).
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard url.hasPrefix("s3://") else { throw ReplicaError.store("not an s3:// URL: \(url)") }
        let rest = url.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        let prefix = String(rest.dropFirst(bucket.count))
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let accessKeyID = value("AWS_ACCESS_KEY_ID") else { throw ReplicaError.store("AWS_ACCESS_KEY_ID is not set") }
        guard let secret = value("AWS_SECRET_ACCESS_KEY") else { throw ReplicaError.store("AWS_SECRET_ACCESS_KEY is not set") }
        var endpoint: URL?
        if let text = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL") {
            guard let parsed = URL(string: text) else { throw ReplicaError.store("AWS_ENDPOINT_URL is not a URL") }
            endpoint = parsed
        }
        try self.init(
            bucket: bucket, prefix: prefix, endpoint: endpoint,
            region: value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1",
            credentials: Credentials(accessKeyID: accessKeyID, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN")))
    }

    /// The store's place, for messages: `s3://bucket/prefix at endpoint`.
    public var description: String {
        "S3ReplicaStore(s3://\(bucket)/\(prefix) at \(endpoint.absoluteString))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The bucket, prefix and endpoint only: `dump` and debuggers show no
    /// credentials.
    public var customMirror: Mirror {
        Mirror(self, children: ["bucket": bucket, "prefix": prefix, "endpoint": endpoint], displayStyle: .struct)
    }

    /// Uploads an object with one `PUT`: S3 makes it visible whole or not at
    /// all. The body's SHA-256 is signed, so the store refuses a body
    /// altered on the way.
    ///
    /// - throws: ``ReplicaError/store(_:)`` with the HTTP status and S3's
    ///   error code, or the network's error.
    public func write(_ data: Data, to name: String) async throws {
        let hash = try SHA256Digest.hash(data).hexString
        _ = try await send("PUT", key: try key(of: name), body: data, bodyHash: hash, accepting: [200])
    }

    /// Downloads an object; nil when the store has none of that name.
    ///
    /// - throws: ``ReplicaError/store(_:)`` on any other failure.
    public func read(_ name: String) async throws -> Data? {
        let (status, body) = try await send("GET", key: try key(of: name), accepting: [200, 404])
        return status == 404 ? nil : body
    }

    /// The names of the objects whose name starts with `prefix`, sorted,
    /// from `ListObjectsV2`, page after page.
    ///
    /// - throws: ``ReplicaError/store(_:)`` on a failed request or a listing
    ///   that cannot be read.
    public func names(withPrefix prefix: String) async throws -> [String] {
        let root = self.prefix.isEmpty ? "" : self.prefix + "/"
        var names: [String] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", root + prefix)]
            if let token { query.append(("continuation-token", token)) }
            let (_, body) = try await send("GET", key: nil, query: query, accepting: [200])
            let page = try S3Listing(parsing: body)
            for key in page.keys where key.hasPrefix(root) {
                names.append(String(key.dropFirst(root.count)))
            }
            token = page.isTruncated ? page.continuationToken : nil
            if page.isTruncated && token == nil { throw ReplicaError.store("a truncated listing without a continuation token") }
        } while token != nil
        return names.sorted()
    }

    /// Deletes an object; a missing object is no error.
    ///
    /// - throws: ``ReplicaError/store(_:)`` on a failed request.
    public func delete(_ name: String) async throws {
        _ = try await send("DELETE", key: try key(of: name), accepting: [200, 204, 404])
    }

    // MARK: Requests

    private func key(of name: String) throws -> String {
        guard !name.isEmpty, !name.hasPrefix("/") else { throw ReplicaError.store("not an object name: \(name)") }
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    /// Sends a signed request, trying again after a 5xx status or a network
    /// error, and returns the status and body of an accepted answer.
    private func send(
        _ method: String, key: String?, query: [(String, String)] = [], body: Data? = nil,
        bodyHash: String = S3Signer.emptyBodyHash, accepting accepted: Set<Int>
    ) async throws -> (Int, Data) {
        let what = "\(method) \(key ?? "s3://\(bucket)/\(prefix)")"
        var failure = ""
        for attempt in 0..<attempts {
            if attempt > 0 { try await Task.sleep(for: .milliseconds(200 << (2 * (attempt - 1)))) }
            let request = try signedRequest(method, key: key, query: query, body: body, bodyHash: bodyHash)
            let data: Data
            let response: URLResponse
            do {
                if let body {
                    (data, response) = try await session.upload(for: request, from: body)
                } else {
                    (data, response) = try await session.data(for: request)
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failure = "\(what): \(Self.networkMessage(error))"
                continue
            }
            guard let http = response as? HTTPURLResponse else {
                failure = "\(what): not an HTTP response"
                continue
            }
            if accepted.contains(http.statusCode) { return (http.statusCode, data) }
            let detail = S3Listing.errorCode(in: data).map { " \($0)" } ?? ""
            failure = "\(what): HTTP \(http.statusCode)\(detail)"
            if http.statusCode < 500 { break }
        }
        throw ReplicaError.store(failure)
    }

    private func signedRequest(
        _ method: String, key: String?, query: [(String, String)], body: Data?, bodyHash: String
    ) throws -> URLRequest {
        var host = endpoint.host!
        var path = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        switch addressing {
        case .path:
            path += "/" + S3Signer.encode(bucket)
        case .virtualHost:
            host = bucket + "." + host
        }
        if let key { path += "/" + S3Signer.encode(key, keepingSlashes: true) }
        if path.isEmpty { path = "/" }
        if let port = endpoint.port { host += ":\(port)" }
        let queryText = S3Signer.canonicalQuery(query)
        let text = "\(endpoint.scheme!)://\(host)\(path)" + (queryText.isEmpty ? "" : "?" + queryText)
        guard let url = URL(string: text) else { throw ReplicaError.store("cannot build a URL for \(key ?? bucket)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        var headers = ["host": host]
        if body != nil { headers["content-type"] = "application/octet-stream" }
        let signed = try signer.signedHeaders(
            method: method, path: path, query: query, headers: headers, bodyHash: bodyHash, date: Date())
        for (name, value) in signed { request.setValue(value, forHTTPHeaderField: name) }
        if let type = headers["content-type"] { request.setValue(type, forHTTPHeaderField: "content-type") }
        return request
    }

    private static func networkMessage(_ error: any Error) -> String {
        if let error = error as? URLError {
            return "network error \(error.code.rawValue) (\(error.localizedDescription))"
        }
        return "\(error)"
    }
}
