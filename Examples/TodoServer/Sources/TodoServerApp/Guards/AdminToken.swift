import Hummingbird

/// A bearer token: the admin routes' and the integrity check's, or the
/// event streams'.
struct AdminToken: Sendable {
    let value: String
    /// What the token is for, in the 401 message ("admin token required").
    var purpose = "admin"

    /// 401 unless the request carries the token (`Authorization: Bearer …`),
    /// compared in a time that does not depend on where it differs.
    func authorize(_ request: Request) throws {
        let header = request.headers[.authorization] ?? ""
        let prefix = "Bearer "
        guard header.hasPrefix(prefix), constantTimeEquals(Array(header.utf8.dropFirst(prefix.utf8.count)), Array(value.utf8))
        else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "\(purpose) token required")
        }
    }
}

/// Compares two byte strings in a time that does not depend on where they differ.
func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}
