import Foundation

/// The `userInfo` of the records' JSON coders.
enum CodingUserInfo {
    /// The dictionary typed as Foundation's JSON coders on Linux want it.
    ///
    /// `Sendable` is a marker protocol, so `Any` and `any Sendable` values
    /// share one layout. The records' protocols declare the dictionary with
    /// `Any` values, as GRDB does; the coders only read it.
    static func sendable(_ userInfo: [CodingUserInfoKey: Any]) -> [CodingUserInfoKey: any Sendable] {
        unsafeBitCast(userInfo, to: [CodingUserInfoKey: any Sendable].self)
    }
}
