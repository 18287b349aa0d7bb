/// Options of ``Database/create(index:on:columns:options:condition:)``.
///
/// ```swift
/// // CREATE UNIQUE INDEX IF NOT EXISTS "index_player_on_email" ON "player"("email")
/// try db.create(indexOn: "player", columns: ["email"], options: [.unique, .ifNotExists])
/// ```
public struct IndexOptions: OptionSet, Sendable {
    /// The bits of the options.
    public let rawValue: Int

    /// Options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `IF NOT EXISTS`: do nothing, and throw no error, when an index with
    /// this name exists.
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)

    /// `UNIQUE`: no two rows may have the same indexed values.
    public static let unique = IndexOptions(rawValue: 1 << 1)
}
