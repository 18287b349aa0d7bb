// The adapters that select or rename columns. ScopeAdapter, which adds
// scopes, is in ScopeAdapter.swift.

/// An adapter that hides every column.
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b", adapter: EmptyRowAdapter())!
/// row.isEmpty // true
/// ```
public struct EmptyRowAdapter: RowAdapter, Sendable {
    /// Creates an adapter that hides every column.
    public init() {}

    /// No column.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        _LayoutedColumnMapping(layoutColumns: [])
    }
}

/// An adapter that renames columns: its keys are the column names of the
/// adapted row, its values the names of the columns they read.
///
/// ```swift
/// let adapter = ColumnMapping(["newA": "a", "newB": "b"])
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c", adapter: adapter)!
/// row // [newA:0 newB:1]
/// ```
///
/// Columns that the mapping does not name are left out; the others keep
/// their order in the fetched row.
public struct ColumnMapping: RowAdapter, Sendable {
    /// Adapted column name → column name in the fetched row.
    let mapping: [String: String]

    /// Creates an adapter from adapted column names to the column names of
    /// the fetched row.
    public init(_ mapping: [String: String]) {
        self.mapping = mapping
    }

    /// The mapped columns, in the order of the fetched row.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_MISUSE`) if a mapped column is
    ///   missing from the fetched row.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        var mapped: [(Int, String)] = []
        mapped.reserveCapacity(mapping.count)
        for (adaptedName, baseName) in mapping {
            guard let position = layout._layoutIndex(ofColumn: baseName) else {
                let names = columns.map(\.1).joined(separator: ", ")
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Mapping references missing column \(baseName). Valid column names are: \(names).")
            }
            mapped.append((columns[position].0, adaptedName))
        }
        // The fetched row's order; the name breaks ties, so that the result
        // does not depend on the dictionary's order.
        mapped.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        return _LayoutedColumnMapping(layoutColumns: mapped)
    }
}

/// An adapter that hides the leftmost columns.
///
/// ```swift
/// let adapter = SuffixRowAdapter(fromIndex: 2)
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d", adapter: adapter)!
/// row // [c:2 d:3]
/// ```
public struct SuffixRowAdapter: RowAdapter, Sendable {
    /// The index of the first visible column.
    let index: Int

    /// Creates an adapter that hides the columns before `index`: with 0,
    /// the adapted row has all the columns.
    public init(fromIndex index: Int) {
        precondition(index >= 0, "Negative column index is out of range")
        self.index = index
    }

    /// The columns from `index` on.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_MISUSE`) if the row has fewer
    ///   than `index` columns.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        guard index <= columns.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "column index \(index) is out of range: the row has \(columns.count) columns")
        }
        return _LayoutedColumnMapping(layoutColumns: columns[index...])
    }
}

/// An adapter that shows a range of columns.
///
/// ```swift
/// let adapter = RangeRowAdapter(1..<3)
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d", adapter: adapter)!
/// row // [b:1 c:2]
/// ```
public struct RangeRowAdapter: RowAdapter, Sendable {
    /// The visible columns.
    let range: Range<Int>

    /// Creates an adapter that shows the columns in `range`.
    public init(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0, "Negative column index is out of range")
        self.range = range
    }

    /// Creates an adapter that shows the columns in `range`.
    public init(_ range: ClosedRange<Int>) {
        precondition(range.lowerBound >= 0, "Negative column index is out of range")
        self.range = range.lowerBound..<(range.upperBound + 1)
    }

    /// The columns in the range.
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_MISUSE`) if the range goes
    ///   past the last column.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        guard range.upperBound <= columns.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "column range \(range) is out of range: the row has \(columns.count) columns")
        }
        return _LayoutedColumnMapping(layoutColumns: columns[range])
    }
}

/// An adapter that renames every column with a function.
///
/// ```swift
/// let adapter = RenameColumnAdapter { $0 + "rrr" }
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b", adapter: adapter)!
/// row // [arrr:0 brrr:1]
/// ```
///
/// It helps with the names SQLite gives to the duplicate columns of a
/// subquery (`id:1`):
///
/// ```swift
/// let adapter = RenameColumnAdapter { String($0.prefix(while: { $0 != ":" })) }
/// let row = try Row.fetchOne(db, sql: "SELECT * FROM (SELECT 1 AS id, 2 AS id)", adapter: adapter)!
/// row.columnNames // ["id", "id"]
/// ```
public struct RenameColumnAdapter: RowAdapter {
    let transform: @Sendable (String) -> String

    /// Creates an adapter that renames each column with `transform`.
    public init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    /// Every column, renamed.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        _LayoutedColumnMapping(layoutColumns: layout._layoutColumns.map { ($0.0, transform($0.1)) })
    }
}

/// Adapters that cut a row into consecutive chunks of `columnCounts`
/// columns, plus one last adapter for the columns on the right of the last
/// chunk.
///
/// With ``ScopeAdapter``, they give separate access to the columns of
/// joined tables, even when names repeat:
///
/// ```swift
/// let adapters = splittingRowAdapters(columnCounts: [
///     try db.columns(in: "player").count,
///     try db.columns(in: "team").count,
/// ])
/// let adapter = ScopeAdapter(["player": adapters[0], "team": adapters[1]])
/// let sql = "SELECT player.*, team.* FROM player LEFT JOIN team ON team.id = player.teamId"
/// let row = try Row.fetchOne(db, sql: sql, adapter: adapter)!
/// row.scopes["player"]  // [id:1 name:"Arthur" teamId:42]
/// row.scopes["team"]    // [id:42 name:"Reds"]
/// ```
///
/// With no count, the only adapter shows the whole row.
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
    var adapters: [any RowAdapter] = []
    adapters.reserveCapacity(columnCounts.count + 1)
    var start = 0
    for count in columnCounts {
        adapters.append(RangeRowAdapter(start..<(start + count)))
        start += count
    }
    adapters.append(SuffixRowAdapter(fromIndex: start))
    return adapters
}
