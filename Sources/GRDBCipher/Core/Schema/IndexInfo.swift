/// An index on a table, as ``Database/indexes(on:in:)`` reports it.
///
/// ```swift
/// // CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT UNIQUE)
/// let index = try db.indexes(on: "player")[0]
/// index.columns  // ["email"]
/// index.isUnique // true
/// index.origin   // .uniqueConstraint
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_index_list>
public struct IndexInfo: Sendable {
    /// What made an index: a `CREATE INDEX` statement, a `UNIQUE`
    /// constraint, or a `PRIMARY KEY` constraint (the `origin` column of
    /// `PRAGMA index_list`).
    public struct Origin: RawRepresentable, Equatable, DatabaseValueConvertible, Sendable {
        /// SQLite's code for the origin: `c`, `u` or `pk`.
        public var rawValue: String

        /// An origin from SQLite's code.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A `CREATE INDEX` statement.
        public static let createIndex = Origin(rawValue: "c")

        /// A `UNIQUE` constraint.
        public static let uniqueConstraint = Origin(rawValue: "u")

        /// A `PRIMARY KEY` constraint.
        public static let primaryKeyConstraint = Origin(rawValue: "pk")

        /// The code, as text.
        public var databaseValue: DatabaseValue {
            rawValue.databaseValue
        }

        /// The origin of a text value, nil for any other value.
        public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Origin? {
            String.fromDatabaseValue(dbValue).map(Origin.init(rawValue:))
        }
    }

    /// The name of the index.
    public let name: String

    /// The indexed columns, in the order of the index.
    public let columns: [String]

    /// Whether the index is unique.
    public let isUnique: Bool

    /// What made the index.
    public let origin: Origin
}
