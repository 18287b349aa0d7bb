/// Options of ``Database/create(table:options:body:)``.
///
/// ```swift
/// // CREATE TEMPORARY TABLE IF NOT EXISTS "session" (...)
/// try db.create(table: "session", options: [.temporary, .ifNotExists]) { t in ... }
/// ```
public struct TableOptions: OptionSet, Sendable {
    /// The bits of the options.
    public let rawValue: Int

    /// Options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `IF NOT EXISTS`: do nothing, and throw no error, when the table
    /// exists. The indexes the definition declares get `IF NOT EXISTS` too.
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)

    /// `TEMPORARY`: the table lives in the `temp` schema of the connection,
    /// and is gone when the connection closes.
    public static let temporary = TableOptions(rawValue: 1 << 1)

    /// `WITHOUT ROWID`: the table is stored in the order of its primary key,
    /// which it must declare (<https://www.sqlite.org/withoutrowid.html>).
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)

    /// `STRICT`: SQLite checks the type of every value the table stores
    /// (<https://www.sqlite.org/stricttables.html>).
    public static let strict = TableOptions(rawValue: 1 << 3)
}
