import GRDBCipher
import Vapor

/// A to-do item: a row of the `todo` table, and the JSON the routes return
/// (`{"id": 1, "title": "…", "completed": false}`).
public struct Todo: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord, Content {
    /// The row id; nil before the insert.
    public var id: Int64?
    /// What to do; never empty nor only white space.
    public var title: String
    /// Whether it is done.
    public var completed: Bool

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
