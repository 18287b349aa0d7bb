/// A foreign key of a table, as ``Database/foreignKeys(on:in:)`` reports it.
///
/// ```swift
/// // CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id))
/// let foreignKey = try db.foreignKeys(on: "player")[0]
/// foreignKey.destinationTable   // "team"
/// foreignKey.originColumns      // ["teamId"]
/// foreignKey.destinationColumns // ["id"]
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>
public struct ForeignKeyInfo: Sendable {
    /// The identifier of the foreign key in its table (the `id` column of
    /// `PRAGMA foreign_key_list`), which ``ForeignKeyViolation/foreignKeyId``
    /// refers to.
    public var id: Int

    /// The table the foreign key refers to.
    public let destinationTable: String

    /// Pairs of columns: each column of the table (origin) and the column
    /// of the destination table it refers to, in the order of the key.
    public let mapping: [(origin: String, destination: String)]

    /// The columns of the table, in the order of the key.
    public var originColumns: [String] {
        mapping.map({ $0.origin })
    }

    /// The columns of the destination table, in the order of the key.
    public var destinationColumns: [String] {
        mapping.map({ $0.destination })
    }
}
