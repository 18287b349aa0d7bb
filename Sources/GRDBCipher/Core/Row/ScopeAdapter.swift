/// An adapter that defines *scopes*: named sub-rows, read with
/// ``Row/scopes``. The row itself keeps its columns (or those of the base
/// adapter).
///
/// ```swift
/// let adapter = ScopeAdapter([
///     "left": RangeRowAdapter(0..<2),
///     "right": RangeRowAdapter(2..<4)])
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d", adapter: adapter)!
/// row                   // [a:0 b:1 c:2 d:3]
/// row.scopes["left"]    // [a:0 b:1]
/// row.scopes["right"]   // [c:2 d:3]
/// row.scopes["missing"] // nil
/// ```
///
/// Scopes nest. Every adapter of a scope, at any depth, applies to the
/// columns of the fetched row, not to those of the enclosing scope:
///
/// ```swift
/// let adapter = ScopeAdapter([
///     "left": ScopeAdapter(["left": RangeRowAdapter(0..<1), "right": RangeRowAdapter(1..<2)]),
///     "right": ScopeAdapter(["left": RangeRowAdapter(2..<3), "right": RangeRowAdapter(3..<4)])])
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d", adapter: adapter)!
/// row.scopes["right"]!.scopes["left"] // [c:2]
/// ```
public struct ScopeAdapter: RowAdapter {
    /// The adapter of the row itself.
    let base: any RowAdapter

    /// The adapters of the scopes.
    let scopes: [String: any RowAdapter]

    /// Creates an adapter that keeps the row as it is and adds scopes.
    ///
    /// - parameter scopes: The adapter of each scope, by name.
    public init(_ scopes: [String: any RowAdapter]) {
        self.init(base: SuffixRowAdapter(fromIndex: 0), scopes: scopes)
    }

    /// Creates an adapter that adapts the row with `base` and adds scopes.
    /// A scope replaces one of the same name that `base` defines.
    ///
    /// ```swift
    /// let adapter = ScopeAdapter(base: RangeRowAdapter(0..<1), scopes: ["suffix": SuffixRowAdapter(fromIndex: 1)])
    /// let row = try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: adapter)!
    /// row                  // [a:1]
    /// row.scopes["suffix"] // [b:2 c:3]
    /// ```
    ///
    /// The same as `base.addingScopes(scopes)`.
    public init(base: some RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    /// The base adapter's columns, and the scopes, each applied to `layout`.
    ///
    /// - throws: A ``DatabaseError`` if an adapter does not fit the columns.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let layoutedBase = try base._layoutedAdapter(from: layout)
        var layoutedScopes = layoutedBase._scopes
        for (name, adapter) in scopes {
            layoutedScopes[name] = try adapter._layoutedAdapter(from: layout)
        }
        return LayoutedScopeAdapter(_mapping: layoutedBase._mapping, _scopes: layoutedScopes)
    }
}

/// A ``ScopeAdapter`` applied to known columns.
struct LayoutedScopeAdapter: _LayoutedRowAdapter {
    let _mapping: _LayoutedColumnMapping
    let _scopes: [String: any _LayoutedRowAdapter]
}
