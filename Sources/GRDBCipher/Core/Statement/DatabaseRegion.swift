/// A part of the database that an observation watches: the union of
/// table regions, each of them a whole table, some of its columns, some of
/// its rows (by rowid), or some columns of some rows.
///
/// Regions come from the requests and tables of the query interface, from
/// a prepared ``Statement`` (``Statement/databaseRegion``), or are built by
/// union:
///
/// ```swift
/// let players = try db.makeStatement(sql: "SELECT * FROM player")
/// let teams = try db.makeStatement(sql: "SELECT name FROM team")
/// let region = players.databaseRegion.union(teams.databaseRegion)
/// print(region) // "player(*),team(name)"
/// ```
///
/// Table and column names compare case-insensitively, as in SQLite.
public struct DatabaseRegion: Sendable {
    /// The regions of each table, by lowercased table name; nil for the
    /// full database.
    private(set) var tables: [String: TableRegion]?

    init(tables: [String: TableRegion]?) {
        self.tables = tables
    }

    /// The empty region: no database change modifies it.
    public init() {
        self.init(tables: [:])
    }

    /// The region of the whole database: every change modifies it.
    public static let fullDatabase = DatabaseRegion(tables: nil)

    /// Whether the region is empty.
    public var isEmpty: Bool {
        tables?.isEmpty ?? false
    }

    /// Whether the region covers the full database.
    public var isFullDatabase: Bool {
        tables == nil
    }

    /// All columns and rows of a table.
    init(table: String) {
        self.init(tables: [table.lowercased(): TableRegion(name: table)])
    }

    /// Some columns of all the rows of a table.
    init(table: String, columns: Set<String>) {
        self.init(tables: [table.lowercased(): TableRegion(name: table, columns: columns)])
    }

    /// All columns of some rows of a table.
    init(table: String, rowIDs: Set<Int64>) {
        self.init(tables: [table.lowercased(): TableRegion(name: table, rowIDs: rowIDs)])
    }

    /// The region made of this one and `other`.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        var result = self
        result.formUnion(other)
        return result
    }

    /// Adds `other` to this region.
    public mutating func formUnion(_ other: DatabaseRegion) {
        guard var tables, let otherTables = other.tables else {
            self = .fullDatabase
            return
        }
        for (key, otherTable) in otherTables {
            if let table = tables[key] {
                tables[key] = table.union(otherTable)
            } else {
                tables[key] = otherTable
            }
        }
        self.tables = tables
    }

    /// The part of the region that is also in `other`.
    func intersection(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let tables else { return other }
        guard let otherTables = other.tables else { return self }
        var result: [String: TableRegion] = [:]
        for (key, table) in tables {
            guard let otherTable = otherTables[key] else { continue }
            let common = table.intersection(otherTable)
            if !common.isEmpty { result[key] = common }
        }
        return DatabaseRegion(tables: result)
    }

    /// The region with the rows of `table` restricted to `rowIDs` (the
    /// region of a request that filters by primary key).
    func restricting(table: String, toRowIDs rowIDs: Set<Int64>) -> DatabaseRegion {
        guard var tables else { return DatabaseRegion(table: table, rowIDs: rowIDs) }
        let key = table.lowercased()
        guard let tableRegion = tables[key] else { return self }
        let restricted = tableRegion.intersection(TableRegion(name: tableRegion.name, rowIDs: rowIDs))
        tables[key] = restricted.isEmpty ? nil : restricted
        return DatabaseRegion(tables: tables)
    }

    /// The tables of the region, with the names of their columns (nil for
    /// all columns); nil for the full database.
    var tableColumns: [(table: String, columns: Set<String>?)]? {
        tables.map { $0.values.map { ($0.name, $0.columns.map { Set($0.values) }) } }
    }
}

extension DatabaseRegion: Equatable {
    /// Whether both regions hold the same tables, columns and rows (names
    /// compared case-insensitively).
    public static func == (lhs: DatabaseRegion, rhs: DatabaseRegion) -> Bool {
        switch (lhs.tables, rhs.tables) {
        case (nil, nil):
            return true
        case let (lhsTables?, rhsTables?):
            guard lhsTables.count == rhsTables.count else { return false }
            for (key, table) in lhsTables {
                guard let other = rhsTables[key], table.hasSameContent(as: other) else { return false }
            }
            return true
        default:
            return false
        }
    }
}

extension DatabaseRegion: CustomStringConvertible {
    /// `full database`, `empty`, or the tables in alphabetical order with
    /// their columns (`*` for all) and rowids: `player(*),team(id,name)[1,2]`.
    public var description: String {
        guard let tables else { return "full database" }
        if tables.isEmpty { return "empty" }
        return tables.values
            .sorted { $0.name < $1.name }
            .map { table in
                var text = table.name
                if let columns = table.columns {
                    text += "(" + columns.values.sorted().joined(separator: ",") + ")"
                } else {
                    text += "(*)"
                }
                if let rowIDs = table.rowIDs {
                    text += "[" + rowIDs.sorted().map(String.init).joined(separator: ",") + "]"
                }
                return text
            }
            .joined(separator: ",")
    }
}

/// The part of one table in a region.
struct TableRegion: Sendable {
    /// The table name, as first given.
    var name: String
    /// Column names by lowercased name; nil for all columns.
    var columns: [String: String]?
    /// Nil for all rows.
    var rowIDs: Set<Int64>?

    init(name: String, columns: Set<String>? = nil, rowIDs: Set<Int64>? = nil) {
        self.name = name
        self.columns = columns.map { columns in
            Dictionary(columns.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        }
        self.rowIDs = rowIDs
    }

    var isEmpty: Bool {
        columns?.isEmpty == true || rowIDs?.isEmpty == true
    }

    func union(_ other: TableRegion) -> TableRegion {
        var result = self
        if let columns, let otherColumns = other.columns {
            result.columns = columns.merging(otherColumns, uniquingKeysWith: { first, _ in first })
        } else {
            result.columns = nil
        }
        if let rowIDs, let otherRowIDs = other.rowIDs {
            result.rowIDs = rowIDs.union(otherRowIDs)
        } else {
            result.rowIDs = nil
        }
        return result
    }

    func intersection(_ other: TableRegion) -> TableRegion {
        var result = self
        switch (columns, other.columns) {
        case (nil, let only), (let only, nil):
            result.columns = only
        case let (columns?, otherColumns?):
            result.columns = columns.filter { otherColumns[$0.key] != nil }
        }
        switch (rowIDs, other.rowIDs) {
        case (nil, let only), (let only, nil):
            result.rowIDs = only
        case let (rowIDs?, otherRowIDs?):
            result.rowIDs = rowIDs.intersection(otherRowIDs)
        }
        return result
    }

    func contains(rowID: Int64) -> Bool {
        rowIDs?.contains(rowID) ?? true
    }

    func hasSameContent(as other: TableRegion) -> Bool {
        rowIDs == other.rowIDs && columns.map { Set($0.keys) } == other.columns.map { Set($0.keys) }
    }
}
