/// The primary key of a table, as ``Database/primaryKey(_:in:)`` reports it.
///
/// Every table has a primary key. A table without an explicit primary key
/// is keyed by its hidden `rowid` column:
///
/// ```swift
/// // CREATE TABLE item (name TEXT)
/// let pk = try db.primaryKey("item")
/// pk.columns     // ["rowid"]
/// pk.rowIDColumn // nil
/// pk.isRowID     // true
///
/// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)
/// let pk = try db.primaryKey("player")
/// pk.columns     // ["id"]
/// pk.rowIDColumn // "id"
/// pk.isRowID     // true
///
/// // CREATE TABLE country (code TEXT NOT NULL PRIMARY KEY, name TEXT)
/// let pk = try db.primaryKey("country")
/// pk.columns     // ["code"]
/// pk.rowIDColumn // nil
/// pk.isRowID     // false
/// ```
public struct PrimaryKeyInfo: Sendable {
    private enum Shape: Sendable {
        /// No explicit primary key: the hidden `rowid`.
        case hiddenRowID
        /// An `INTEGER PRIMARY KEY` column, an alias of the rowid.
        case rowIDAlias(ColumnInfo)
        /// Any other primary key, of one or several columns.
        case columns([ColumnInfo], tableHasRowID: Bool)
    }

    private let shape: Shape

    private init(_ shape: Shape) {
        self.shape = shape
    }

    /// The key of a table without an explicit primary key.
    static let hiddenRowID = PrimaryKeyInfo(.hiddenRowID)

    /// The key of a table whose `INTEGER PRIMARY KEY` column is `column`.
    static func rowIDAlias(_ column: ColumnInfo) -> PrimaryKeyInfo {
        PrimaryKeyInfo(.rowIDAlias(column))
    }

    /// Any other key: `columns` is not empty, and ordered as the key.
    static func columns(_ columns: [ColumnInfo], tableHasRowID: Bool) -> PrimaryKeyInfo {
        precondition(!columns.isEmpty, "a primary key has at least one column")
        return PrimaryKeyInfo(.columns(columns, tableHasRowID: tableHasRowID))
    }

    /// The names of the columns of the primary key, in the order of the key
    /// (`["rowid"]` for a table without an explicit primary key). Never empty.
    public var columns: [String] {
        switch shape {
        case .hiddenRowID: ["rowid"]
        case .rowIDAlias(let column): [column.name]
        case .columns(let columns, _): columns.map({ $0.name })
        }
    }

    /// The columns of the primary key, in the order of the key, or nil when
    /// the key is the hidden rowid.
    var columnInfos: [ColumnInfo]? {
        switch shape {
        case .hiddenRowID: nil
        case .rowIDAlias(let column): [column]
        case .columns(let columns, _): columns
        }
    }

    /// The name of the `INTEGER PRIMARY KEY` column, the column that is an
    /// alias of the rowid; nil when the table has none.
    public var rowIDColumn: String? {
        switch shape {
        case .rowIDAlias(let column): column.name
        case .hiddenRowID, .columns: nil
        }
    }

    /// Whether the primary key is the rowid: the hidden `rowid`, or an
    /// `INTEGER PRIMARY KEY` column.
    public var isRowID: Bool {
        switch shape {
        case .hiddenRowID, .rowIDAlias: true
        case .columns: false
        }
    }

    /// Whether the table has a rowid: false only for `WITHOUT ROWID` tables.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/withoutrowid.html>
    var tableHasRowID: Bool {
        switch shape {
        case .hiddenRowID, .rowIDAlias: true
        case .columns(_, let tableHasRowID): tableHasRowID
        }
    }

    /// The column that finds a row the fastest: the `INTEGER PRIMARY KEY`
    /// column, else `rowid`, else the single column of the key of a
    /// `WITHOUT ROWID` table; nil for a `WITHOUT ROWID` table keyed by
    /// several columns.
    var fastPrimaryKeyColumn: String? {
        if let rowIDColumn { return rowIDColumn }
        if tableHasRowID { return "rowid" }
        let columns = columns
        return columns.count == 1 ? columns[0] : nil
    }
}
