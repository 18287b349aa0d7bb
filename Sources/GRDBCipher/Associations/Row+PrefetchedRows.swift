// The rows of prefetched to-many associations (`including(all:)`), read
// with `row.prefetchedRows["books"]`, and decoded by Decodable records
// from the property of the same name.

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

/// Decodes a collection (an array, a set...) from prefetched rows: each
/// element from one row, a record with ``FetchableRecord/init(row:)``, a
/// value from the row's first column, anything else from its columns.
struct PrefetchedRowsDecoder<Record: FetchableRecord>: Decoder {
    let rows: [Row]
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch([Row].self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "prefetched rows decode as a collection"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PrefetchedRowsContainer<Record>(rows: rows, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch([Row].self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "prefetched rows decode as a collection"))
    }
}

private struct PrefetchedRowsContainer<Record: FetchableRecord>: UnkeyedDecodingContainer {
    let rows: [Row]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(rows: [Row], codingPath: [any CodingKey]) {
        self.rows = rows
        self.codingPath = codingPath
    }

    var count: Int? { rows.count }
    var isAtEnd: Bool { currentIndex >= rows.count }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(T.self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "no more prefetched row"))
        }
        let row = rows[currentIndex]
        currentIndex += 1
        if let recordType = T.self as? any FetchableRecord.Type {
            return try recordType.init(row: row) as! T
        }
        if T.self is any DatabaseValueConvertible.Type {
            return try T(from: ColumnDecoder<Record>(row: row, index: 0, codingPath: codingPath))
        }
        return try T(from: RecordRowDecoder<Record>(row: row, codingPath: codingPath, usesRecordStrategy: false))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(KeyedDecodingContainer<NestedKey>.self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "no more prefetched row"))
        }
        let row = rows[currentIndex]
        currentIndex += 1
        return try RecordRowDecoder<Record>(row: row, codingPath: codingPath, usesRecordStrategy: false)
            .container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Row].self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "a prefetched row can not be decoded as a collection"))
    }

    mutating func superDecoder() throws -> any Decoder {
        PrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath)
    }
}
