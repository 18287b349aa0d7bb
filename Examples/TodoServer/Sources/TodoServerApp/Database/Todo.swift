import GRDBCipher

/// A to-do item: a row of the `todo` table, and the JSON the routes return
/// (`{"id": 1, "title": "…", "completed": false}`).
public struct Todo: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    /// The row id; nil before the insert.
    public var id: Int64?
    /// What to do: 1 to ``maximumTitleLength`` characters and at most
    /// ``maximumTitleBytes`` bytes, not only spaces.
    public var title: String
    /// Whether it is done.
    public var completed: Bool

    /// The longest title accepted, in characters.
    public static let maximumTitleLength = 200

    /// The longest title accepted, in bytes of UTF-8. One character can
    /// carry any number of combining marks: the character count alone
    /// bounds nothing (a single "character" of 14 KB passes it).
    public static let maximumTitleBytes = 800

    /// The columns, for the query interface.
    public enum Columns {
        /// The `id` column.
        public static let id = Column(CodingKeys.id)
        /// The `completed` column.
        public static let completed = Column(CodingKeys.completed)
    }

    /// A to-do item that is not in the database yet.
    public init(id: Int64? = nil, title: String, completed: Bool = false) {
        self.id = id
        self.title = title
        self.completed = completed
    }

    /// Keeps the id SQLite gave the new row.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
