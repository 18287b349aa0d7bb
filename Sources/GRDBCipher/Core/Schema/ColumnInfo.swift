/// A column of a table or a view, as ``Database/columns(in:in:)`` reports it.
///
/// ```swift
/// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'Anonymous')
/// let columns = try db.columns(in: "player")
/// columns[1].name            // "name"
/// columns[1].type            // "TEXT"
/// columns[1].isNotNull       // true
/// columns[1].defaultValueSQL // "'Anonymous'"
/// columns[0].primaryKeyIndex // 1
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_table_xinfo>
public struct ColumnInfo: Sendable {
    /// The rank of the column in the table (`cid`).
    let cid: Int

    /// SQLite's `hidden` flag: 0 for a plain column, 1 for a hidden column
    /// of a virtual table, 2 and 3 for generated columns (virtual and
    /// stored). Nil when the row comes from `PRAGMA table_info`.
    let hidden: Int?

    /// The name of the column.
    public let name: String

    /// The declared type of the column, as written in the schema, or the
    /// empty string when the column has no declared type.
    ///
    /// Compare it case-insensitively: its case is the case of the schema.
    public let type: String

    /// The declared type of the column, or nil when it has none.
    var columnType: Database.ColumnType? {
        type.isEmpty ? nil : Database.ColumnType(rawValue: type)
    }

    /// Whether the column has a `NOT NULL` constraint.
    public let isNotNull: Bool

    /// The SQL of the column's default value (`0`, `'Anonymous'`,
    /// `CURRENT_TIMESTAMP`), or nil when the column has no default.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#the_default_clause>
    public let defaultValueSQL: String?

    /// The rank of the column in the primary key, starting at 1, or 0 when
    /// the column is not part of the primary key.
    public internal(set) var primaryKeyIndex: Int

    /// A column from a row of `PRAGMA table_info` or `PRAGMA table_xinfo`
    /// (columns `cid`, `name`, `type`, `notnull`, `dflt_value`, `pk`, and
    /// `hidden` for `table_xinfo`).
    public init(row: Row) {
        cid = row["cid"]
        name = row["name"]
        type = row["type"]
        isNotNull = row["notnull"]
        defaultValueSQL = row["dflt_value"]
        primaryKeyIndex = row["pk"]
        hidden = row["hidden"]
    }
}
