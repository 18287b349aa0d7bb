// The rows of prefetched to-many associations (`including(all:)`), read
// with `row.prefetchedRows["books"]`, and decoded by Decodable records
// from the property of the same name.

extension Row {
    /// The rows of the to-many associations a request prefetched, by
    /// association key.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Author.including(all: Author.books))!
    /// let bookRows = row.prefetchedRows["books"]   // [Row]?
    /// ```
    public var prefetchedRows: PrefetchedRowsView {
        PrefetchedRowsView(rows: prefetchedRowsByKey)
    }

    /// The prefetched rows of a row: see ``Row/prefetchedRows``.
    public struct PrefetchedRowsView: Equatable {
        let rows: [String: [Row]]

        /// The association keys.
        public var keys: Set<String> { Set(rows.keys) }

        /// Whether there is no prefetched association.
        public var isEmpty: Bool { rows.isEmpty }

        /// The rows prefetched for an association key, or nil.
        public subscript(_ key: String) -> [Row]? { rows[key] }
    }
}

/// The rows prefetched for a scope of a row, and for its own scopes.
struct ScopePrefetchedRows {
    var rows: [String: [Row]] = [:]
    var scopes: [String: ScopePrefetchedRows] = [:]
}

extension Row {
    /// Sets the rows prefetched for an association key, in the scope at
    /// `scopePath` (the row itself for an empty path).
    func setPrefetchedRows(_ rows: [Row], forKey key: String, inScope scopePath: ArraySlice<String>) {
        guard let first = scopePath.first else {
            prefetchedRowsByKey[key] = rows
            return
        }
        prefetchedRowsOfScopes[first, default: ScopePrefetchedRows()].setRows(rows, forKey: key, inScope: scopePath.dropFirst())
    }
}

extension ScopePrefetchedRows {
    mutating func setRows(_ rows: [Row], forKey key: String, inScope scopePath: ArraySlice<String>) {
        guard let first = scopePath.first else {
            self.rows[key] = rows
            return
        }
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
