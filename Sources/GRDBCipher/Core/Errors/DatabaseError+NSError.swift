import Foundation

/// `DatabaseError` bridges to `NSError` with GRDB's domain, so that code which
/// reads errors as `NSError` (loggers, crash reporters, `localizedDescription`)
/// sees the same values as with GRDB.
extension DatabaseError: CustomNSError {
    /// "GRDB.DatabaseError", as in GRDB, so that code testing the domain keeps working.
    public static var errorDomain: String { "GRDB.DatabaseError" }

    /// The extended result code (`2067` for `SQLITE_CONSTRAINT_UNIQUE`).
    public var errorCode: Int { Int(extendedResultCode.rawValue) }

    /// ``description`` as `NSLocalizedDescriptionKey`, and ``message``, if
    /// any, as `NSLocalizedFailureReasonErrorKey`. Neither holds the statement
    /// arguments unless they are public, nor ever a key.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let message {
            userInfo[NSLocalizedFailureReasonErrorKey] = message
        }
        return userInfo
    }
}
