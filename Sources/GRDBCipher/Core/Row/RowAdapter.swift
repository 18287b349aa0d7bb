/// A type that presents fetched rows the way their consumer expects:
/// renamed columns, a range of columns, and *scopes* (named sub-rows, see
/// ``Row/scopes``).
///
/// Pass one to the `adapter:` parameter of a fetch method, or to the
/// `adapted(_:)` method of a request:
///
/// ```swift
/// // Feeds the "consumed" column from "produced":
/// let adapter = ColumnMapping(["consumed": "produced"])
/// let row = try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced", adapter: adapter)!
/// row["consumed"]   // "Hello"
/// row.unadapted     // [produced:"Hello"]
/// ```
///
/// The built-in adapters are ``ColumnMapping``, ``SuffixRowAdapter``,
/// ``RangeRowAdapter``, ``ScopeAdapter``, ``EmptyRowAdapter`` and
/// ``RenameColumnAdapter``; ``splittingRowAdapters(columnCounts:)`` cuts a
/// row into chunks. An adapted row reads the values of the fetched row
/// through an index map: it copies nothing, and the map is computed once
/// per fetch, from the statement's columns.
///
/// A custom adapter composes built-in ones:
///
/// ```swift
/// struct PlayerAndTeamAdapter: RowAdapter {
///     func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
///         try ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 3)])._layoutedAdapter(from: layout)
///     }
/// }
/// ```
public protocol RowAdapter: Sendable {
    /// The adapter applied to the columns of `layout`. You do not call it:
    /// fetch methods do, once per fetch.
    ///
    /// - throws: A ``DatabaseError`` if the adapter does not fit the
    ///   columns (a ``ColumnMapping`` to a missing column).
    func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter
}

/// The columns an adapter applies to: those of a statement, or of another
/// adapter. Each column is the index of a column of the fetched row, and a
/// name.
public protocol _RowLayout {
    /// The columns, left to right: the index of each one in the fetched
    /// row, and its name.
    var _layoutColumns: [(Int, String)] { get }

    /// The position in ``_layoutColumns`` of the leftmost column of this
    /// name, compared case-insensitively, or nil.
    func _layoutIndex(ofColumn name: String) -> Int?
}

/// An adapter applied to known columns: the columns of the adapted row,
/// and its scopes.
public protocol _LayoutedRowAdapter {
    /// The columns of the adapted row.
    var _mapping: _LayoutedColumnMapping { get }

    /// The adapters of the row's scopes, by scope name.
    var _scopes: [String: any _LayoutedRowAdapter] { get }
}

/// The columns of an adapted row: for each one, the index of the column
/// it reads in the fetched row, and its name.
public struct _LayoutedColumnMapping {
    /// The columns, left to right: the index of each one in the fetched
    /// row, and its name.
    public let _layoutColumns: [(Int, String)]

    /// The fetched row's index of each column.
    let baseIndexes: [Int]

    /// The column names, for lookups by name.
    let lookup: ColumnLookup

    init(layoutColumns: some Collection<(Int, String)>) {
        let columns = Array(layoutColumns)
        self._layoutColumns = columns
        self.baseIndexes = columns.map(\.0)
        self.lookup = ColumnLookup(columnNames: columns.map(\.1))
    }
}

extension _LayoutedColumnMapping: _LayoutedRowAdapter {
    /// The mapping itself.
    public var _mapping: _LayoutedColumnMapping { self }

    /// No scope.
    public var _scopes: [String: any _LayoutedRowAdapter] { [:] }
}

extension _LayoutedColumnMapping: _RowLayout {
    /// The position of the leftmost column of this name (case-insensitive), or nil.
    public func _layoutIndex(ofColumn name: String) -> Int? {
        lookup.index(of: name)
    }
}

extension Statement: _RowLayout {
    /// The result columns: their indexes and names.
    public var _layoutColumns: [(Int, String)] {
        columnNames.enumerated().map { ($0.offset, $0.element) }
    }

    /// The index of the leftmost result column of this name (case-insensitive), or nil.
    public func _layoutIndex(ofColumn name: String) -> Int? {
        index(ofColumn: name)
    }
}

extension RowAdapter {
    /// An adapter that adapts rows as this one does, with these scopes
    /// added. A scope replaces one of the same name that this adapter
    /// defines.
    ///
    /// ```swift
    /// let adapter = RangeRowAdapter(0..<2).addingScopes(["remainder": SuffixRowAdapter(fromIndex: 2)])
    /// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d", adapter: adapter)!
    /// row                     // [a:0 b:1]
    /// row.scopes["remainder"] // [c:2 d:3]
    /// ```
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        if scopes.isEmpty { return self }
        return ScopeAdapter(base: self, scopes: scopes)
    }

    /// The fetched row's index of the adapted row's column at `index`.
    ///
    /// - throws: A ``DatabaseError`` if the adapter does not fit the
    ///   statement, or has no such column.
    func baseColumnIndex(atIndex index: Int, in statement: Statement) throws -> Int {
        let mapping = try _layoutedAdapter(from: statement)._mapping
        guard index < mapping.baseIndexes.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the row adapter defines no column at index \(index)",
                sql: statement.sql)
        }
        return mapping.baseIndexes[index]
    }
}

/// An adapter applied after another one: it sees the columns that the
/// first one gives, and keeps its scopes only. What a
/// request's `adapted(_:)` makes of a request that already adapts.
struct ChainedRowAdapter: RowAdapter {
    let first: any RowAdapter
    let second: any RowAdapter

    func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        try second._layoutedAdapter(from: first._layoutedAdapter(from: layout)._mapping)
    }
}
