/// Options of ``Database/create(view:options:columns:as:)``.
///
/// ```swift
/// // CREATE TEMPORARY VIEW IF NOT EXISTS "hero" AS SELECT ...
/// try db.create(view: "hero", options: [.temporary, .ifNotExists], as: request)
/// ```
public struct ViewOptions: OptionSet, Sendable {
    /// The bits of the options.
    public let rawValue: Int

    /// Options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `IF NOT EXISTS`: do nothing, and throw no error, when the view exists.
    public static let ifNotExists = ViewOptions(rawValue: 1 << 0)

    /// `TEMPORARY`: the view lives in the `temp` schema of the connection,
    /// and is gone when the connection closes.
    public static let temporary = ViewOptions(rawValue: 1 << 1)
}
