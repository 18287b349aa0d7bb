// The rows of prefetched to-many associations (`including(all:)`), read
// with `row.prefetchedRows["books"]`. The fetch of the request sets them;
// the records layer decodes them into the property of the same name.

extension Row {
    /// The rows of the to-many associations a request prefetched, by
    /// association key, including the ones prefetched for the row's
    /// scopes, at any depth, as in GRDB.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Author.including(all: Author.books))!
    /// let bookRows = row.prefetchedRows["books"]   // [Row]?
    ///
    /// // Prefetched for the "author" scope, found from the book row too:
    /// let request = Book.including(required: Book.author.including(all: Author.awards))
    /// let bookRow = try Row.fetchOne(db, request)!
    /// bookRow.prefetchedRows["awards"]   // [Row]?
    /// ```
    public var prefetchedRows: PrefetchedRowsView {
        PrefetchedRowsView(tree: ScopePrefetchedRows(
            rows: prefetchedRowsByKey, scopes: prefetchedRowsOfScopes, scopeOrder: prefetchedScopeOrder))
    }

    /// The prefetched rows of a row: see ``Row/prefetchedRows``.
    ///
    /// Keys are searched breadth first: the row's own associations, then
    /// the ones of its scopes in the order of the request, then of their
    /// scopes.
    public struct PrefetchedRowsView: Equatable {
        let tree: ScopePrefetchedRows

        /// The association keys, at any depth.
        public var keys: Set<String> {
            var keys: Set<String> = []
            tree.visitBreadthFirst { rows in
                keys.formUnion(rows.keys)
                return false
            }
            return keys
        }

        /// Whether there is no prefetched association.
        public var isEmpty: Bool { tree.isEmpty }

        /// The rows prefetched for an association key, the nearest to the
        /// row, or nil.
        public subscript(_ key: String) -> [Row]? {
            if tree.scopes.isEmpty { return tree.rows[key] }
            var found: [Row]?
            tree.visitBreadthFirst { rows in
                found = rows[key]
                return found != nil
            }
            return found
        }
    }
}

/// The rows prefetched for a scope of a row, and for its own scopes.
struct ScopePrefetchedRows: Equatable {
    var rows: [String: [Row]] = [:]
    var scopes: [String: ScopePrefetchedRows] = [:]
    /// The keys of `scopes`, in the order of the request.
    var scopeOrder: [String] = []

    /// Whether no rows are prefetched, at any depth.
    var isEmpty: Bool {
        rows.isEmpty && scopes.values.allSatisfy(\.isEmpty)
    }

    /// Calls `visit` with the prefetched rows of each level, breadth first
    /// (scopes of a level in the order of the request), until it returns
    /// true.
    func visitBreadthFirst(_ visit: ([String: [Row]]) -> Bool) {
        var level = [self]
        while !level.isEmpty {
            var next: [ScopePrefetchedRows] = []
            for node in level {
                if !node.rows.isEmpty && visit(node.rows) { return }
                next += node.scopeOrder.compactMap { node.scopes[$0] }
            }
            level = next
        }
    }
}

extension Row {
    /// Sets the rows prefetched for an association key, in the scope at
    /// `scopePath` (the row itself for an empty path).
    func setPrefetchedRows(_ rows: [Row], forKey key: String, inScope scopePath: ArraySlice<String>) {
        guard let first = scopePath.first else {
            prefetchedRowsByKey[key] = rows
            return
        }
        if prefetchedRowsOfScopes[first] == nil { prefetchedScopeOrder.append(first) }
        prefetchedRowsOfScopes[first, default: ScopePrefetchedRows()].setRows(rows, forKey: key, inScope: scopePath.dropFirst())
    }
}

extension ScopePrefetchedRows {
    mutating func setRows(_ rows: [Row], forKey key: String, inScope scopePath: ArraySlice<String>) {
        guard let first = scopePath.first else {
            self.rows[key] = rows
            return
        }
        if scopes[first] == nil { scopeOrder.append(first) }
        scopes[first, default: ScopePrefetchedRows()].setRows(rows, forKey: key, inScope: scopePath.dropFirst())
    }
}
