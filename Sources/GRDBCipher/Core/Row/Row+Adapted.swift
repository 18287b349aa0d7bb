// Adapted rows: rows that read another row through an index map (see
// RowAdapter), their scopes, and the unadapted row they read.

/// What an adapted row reads: an unadapted row, through a layout.
struct RowAdaptation {
    /// The unadapted row: a cursor row, or a copied one.
    let base: Row
    /// The index map and the scopes.
    let layout: AdaptedRowLayout
}

extension Row {
    /// The row adapted with `adapter`, already applied to the statement's
    /// columns; the row itself when there is none.
    func adapted(with layout: AdaptedRowLayout?) -> Row {
        guard let layout else { return self }
        return Row(base: self, layout: layout)
    }

    /// The statement that produced the row, or the row it adapts: for
    /// error messages.
    var sourceStatement: Statement? {
        statement ?? adaptation?.base.statement
    }

    /// The layout of an adapted row over a cursor row: such a row is used
    /// by one thread at a time, so its layout may keep the coding key
    /// tables of the records decoded from it. Nil for other rows.
    var cursorAdaptedLayout: AdaptedRowLayout? {
        guard let adaptation, adaptation.base.statement != nil else { return nil }
        return adaptation.layout
    }

    /// The raw row, as fetched: the row itself when it is not adapted.
    ///
    /// ```swift
    /// let adapter = ColumnMapping(["consumed": "produced"])
    /// let row = try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced", adapter: adapter)!
    /// row             // [consumed:"Hello"]
    /// row.unadapted   // [produced:"Hello"]
    /// ```
    public var unadapted: Row {
        adaptation?.base ?? self
    }

    /// The row without its scopes: the same columns and values.
    ///
    /// ```swift
    /// let adapter = ScopeAdapter(["suffix": SuffixRowAdapter(fromIndex: 1)])
    /// let row = try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b", adapter: adapter)!
    /// row == ["a": 1, "b": 2]           // false: `row` has a scope
    /// row.unscoped == ["a": 1, "b": 2]  // true
    /// ```
    /// Rows prefetched by `including(all:)` are dropped too, as in GRDB.
    public var unscoped: Row {
        guard let adaptation, !adaptation.layout.scopes.isEmpty else {
            guard prefetchedRowsByKey.isEmpty && prefetchedRowsOfScopes.isEmpty else {
                return adaptation.map { Row(base: $0.base, layout: $0.layout) } ?? copyWithoutPrefetchedRows()
            }
            return self
        }
        return Row(base: adaptation.base, layout: adaptation.layout.unscoped)
    }

    /// The scopes of the row: named sub-rows that a ``ScopeAdapter``
    /// defines.
    ///
    /// ```swift
    /// let adapter = ScopeAdapter(["left": RangeRowAdapter(0..<2), "right": RangeRowAdapter(2..<4)])
    /// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d", adapter: adapter)!
    /// row.scopes["left"]    // [a:0 b:1]
    /// row.scopes["missing"] // nil
    /// for (name, scopedRow) in row.scopes { ... }
    /// ```
    ///
    /// A scoped row reads the same values as the row: a scope of a cursor
    /// row changes as the cursor moves.
    public var scopes: ScopesView {
        ScopesView(adaptation: adaptation, prefetchedRows: prefetchedRowsOfScopes)
    }

    /// The scopes of the row and, recursively, of its scopes: a scope is
    /// found by name at any depth, breadth first.
    ///
    /// ```swift
    /// // row.scopes["author"]!.scopes["country"] is also:
    /// row.scopesTree["country"]
    /// ```
    public var scopesTree: ScopesTreeView {
        ScopesTreeView(scopes: scopes)
    }

    /// The scope of this name at any depth, breadth first, or nil; nil at
    /// once for a row that is not adapted. For the record decoders.
    func scopeInTree(named name: String) -> Row? {
        guard adaptation != nil else { return nil }
        return scopesTree[name]
    }

    /// Whether both rows have scopes of the same names, with equal rows.
    func hasSameScopes(as other: Row) -> Bool {
        let scopes = self.scopes
        let otherScopes = other.scopes
        guard Set(scopes.names) == Set(otherScopes.names) else { return false }
        for (name, row) in scopes where row != otherScopes[name] {
            return false
        }
        return true
    }

    /// The debug description at a depth of scopes, as GRDB formats it.
    func debugDescription(level: Int) -> String {
        let prefetchedRows = self.prefetchedRows
        if level == 0 && self == unadapted && prefetchedRows.isEmpty { return description }
        let indent = String(repeating: "  ", count: level + 1)
        var result = description
        if level == 0 {
            result = "▿ " + result
            let unadapted = self.unadapted
            if self != unadapted {
                result += "\n" + indent + "unadapted: " + unadapted.description
            }
        }
        for (name, row) in scopes.sorted(by: { $0.name < $1.name }) {
            result += "\n" + indent + "- " + name + ": " + row.debugDescription(level: level + 1)
        }
        // As GRDB prints them: the keys of the row and of its scopes.
        for key in prefetchedRows.keys.sorted() {
            guard let rows = prefetchedRows[key] else { continue }
            result += "\n" + indent + "+ " + key + ": \(rows.count) row" + (rows.count > 1 ? "s" : "")
        }
        return result
    }
}

extension Row {
    /// The scopes of a row, as `(name, row)` pairs: see ``Row/scopes``.
    public struct ScopesView: Collection {
        /// The row's adaptation: nil for a row with no scope.
        private let adaptation: RowAdaptation?
        private let adapters: [String: any _LayoutedRowAdapter]
        /// The prefetched rows of the scopes, by scope name.
        private let prefetchedRows: [String: ScopePrefetchedRows]

        init(adaptation: RowAdaptation?, prefetchedRows: [String: ScopePrefetchedRows] = [:]) {
            self.adaptation = adaptation
            self.adapters = adaptation?.layout.scopeAdapters ?? [:]
            self.prefetchedRows = prefetchedRows
        }

        /// The names of the scopes.
        public var names: Dictionary<String, any _LayoutedRowAdapter>.Keys {
            adapters.keys
        }

        /// The row of the scope of this name, or nil if there is none.
        public subscript(_ name: String) -> Row? {
            guard let adaptation, let layout = adaptation.layout.scopes[name] else { return nil }
            let row = Row(base: adaptation.base, layout: layout)
            if let prefetched = prefetchedRows[name] {
                row.prefetchedRowsByKey = prefetched.rows
                row.prefetchedRowsOfScopes = prefetched.scopes
                row.prefetchedScopeOrder = prefetched.scopeOrder
            }
            return row
        }

        /// A position in the scopes.
        public typealias Index = Dictionary<String, any _LayoutedRowAdapter>.Index

        /// The position of the first scope.
        public var startIndex: Index { adapters.startIndex }

        /// The position after the last scope.
        public var endIndex: Index { adapters.endIndex }

        /// The position after `i`.
        public func index(after i: Index) -> Index { adapters.index(after: i) }

        /// The name and row of the scope at `position`.
        public subscript(position: Index) -> (name: String, row: Row) {
            let name = adapters[position].key
            // Both dictionaries have the same keys: `adaptation` is set.
            return (name: name, row: self[name]!)
        }
    }

    /// The scopes of a row at any depth: see ``Row/scopesTree``.
    public struct ScopesTreeView {
        let scopes: ScopesView

        /// The names of the scopes at any depth.
        public var names: Set<String> {
            var names: Set<String> = []
            for (name, row) in scopes {
                names.insert(name)
                names.formUnion(row.scopesTree.names)
            }
            return names
        }

        /// The row of the scope of this name, at any depth, or nil. Scopes
        /// are searched breadth first: a scope of the row wins over a
        /// scope of a scope.
        public subscript(_ name: String) -> Row? {
            var queue = Array(scopes)
            var position = 0
            while position < queue.count {
                let scope = queue[position]
                if scope.name == name { return scope.row }
                queue.append(contentsOf: scope.row.scopes)
                position += 1
            }
            return nil
        }
    }
}
