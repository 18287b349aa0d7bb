import Foundation
import GRDBCipher

/// AWS Signature Version 4 for S3 requests, with libcrypto's HMAC-SHA-256
/// and SHA-256 (through the library's replica cryptography).
///
/// The signature covers the method, the path, the query, the `host`,
/// `x-amz-content-sha256` and `x-amz-date` headers (and any other header
/// given), and the SHA-256 of the body: a store that verifies it (S3 does)
/// refuses a body altered on the way.
struct S3Signer: Sendable {
    var credentials: S3ReplicaStore.Credentials
    var region: String
    var service = "s3"

    /// The SHA-256 of an empty body, in hexadecimal.
    static let emptyBodyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The headers to add to a request: `x-amz-date`,
    /// `x-amz-content-sha256`, the session token if there is one, and
    /// `Authorization`.
    ///
    /// - parameters:
    ///   - method: `GET`, `PUT`, `DELETE`...
    ///   - path: the request's path, already percent-encoded.
    ///   - query: the query items, not encoded.
    ///   - headers: the other headers to sign, `host` among them.
    ///   - bodyHash: the SHA-256 of the body, in lowercase hexadecimal.
    ///   - date: the time of the request.
    func signedHeaders(
        method: String, path: String, query: [(String, String)], headers: [String: String],
        bodyHash: String, date: Date
    ) throws -> [String: String] {
        let (stamp, day) = Self.timestamps(date)
        var all = [String: String]()
        for (name, value) in headers { all[name.lowercased()] = value }
        all["x-amz-date"] = stamp
        all["x-amz-content-sha256"] = bodyHash
        if let token = credentials.sessionToken { all["x-amz-security-token"] = token }
        let names = all.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(Self.trimmed(all[$0]!))\n" }.joined()
        let signedNames = names.joined(separator: ";")
        let canonicalRequest = [
            method, path, Self.canonicalQuery(query), canonicalHeaders, signedNames, bodyHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", stamp, scope, try SHA256Digest.hash(Data(canonicalRequest.utf8)).hexString,
        ].joined(separator: "\n")
        var key = try ReplicaCrypto.mac(Data(day.utf8), key: Array(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [region, service, "aws4_request"] {
            key = try ReplicaCrypto.mac(Data(part.utf8), key: key)
        }
        let signature = try ReplicaCrypto.mac(Data(stringToSign.utf8), key: key).hexString
        var result = all
        result.removeValue(forKey: "host")
        for name in headers.keys { result.removeValue(forKey: name.lowercased()) }
        result["authorization"] = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope),"
            + "SignedHeaders=\(signedNames),Signature=\(signature)"
        return result
    }

    /// The query in SigV4's canonical form: names and values encoded, sorted
    /// by name then value.
    static func canonicalQuery(_ query: [(String, String)]) -> String {
        let encoded: [(name: String, value: String)] = query.map { (encode($0.0), encode($0.1)) }
        let sorted = encoded.sorted { lhs, rhs in
            lhs.name == rhs.name ? lhs.value < rhs.value : lhs.name < rhs.name
        }
        return sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    /// Percent-encodes everything but SigV4's unreserved characters (and
    /// `/` when `keepingSlashes`).
    static func encode(_ text: String, keepingSlashes: Bool = false) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                 UInt8(ascii: "."), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlashes:
                result.append("/")
            default:
                result += "%" + [byte].hexString.uppercased()
            }
        }
        return result
    }

    private static func trimmed(_ value: String) -> String {
        value.trimmingCharacters(in: .whitespaces)
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// `yyyyMMdd'T'HHmmss'Z'` and `yyyyMMdd`, in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let day = "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))"
        return (day + "T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z", day)
    }
}
