// Keys that name a scope of the row (see Row.scopes): as in GRDB, a key that
// is no column but names a scope, at any depth, decodes from the scope's row.
// Only keys without a column get here: columns never pay for scopes.

extension RowKeyedDecodingContainer {
    /// The names of the row's scopes, at any depth, for `allKeys`.
    var scopeKeyNames: [String] {
        let row = storage.row
        let prefetchedKeys = Array(row.prefetchedRows.keys)
        guard row.adaptation != nil else { return prefetchedKeys }
        return Array(row.scopesTree.names) + prefetchedKeys
    }

    /// Whether a key without a column decodes as nil: true unless it names
    /// prefetched rows, or a scope that holds a value other than NULL.
    func scopeIsNil(_ key: Key) -> Bool {
        if storage.row.prefetchedRows[key.stringValue] != nil { return false }
        guard let scopedRow = storage.row.scopeInTree(named: key.stringValue) else { return true }
        return !scopedRow.containsNonNullValue
    }

    /// The value decoded from the prefetched rows of a key (`including(all:)`),
    /// or nil if the row has none for this key.
    func decodePrefetchedRows<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let rows = storage.row.prefetchedRows[key.stringValue] else { return nil }
        return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: storage.decoder.codingPath + [key]))
    }

    /// The value of a key without a column: decoded from the prefetched
    /// rows or the scope of that name, or nil if there is none or if the
    /// scope only holds NULL values (a missing left-joined row).
    func decodeScopeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if let value = try decodePrefetchedRows(type, forKey: key) { return value }
        guard let scopedRow = storage.row.scopeInTree(named: key.stringValue), scopedRow.containsNonNullValue else {
            return nil
        }
        return try decodeScope(type, from: scopedRow, forKey: key)
    }

    /// A value decoded from a scope's row: with ``FetchableRecord/init(row:)``
    /// for a record, with its coding keys as column names otherwise.
    func decodeScope<T: Decodable>(_ type: T.Type, from scopedRow: Row, forKey key: Key) throws -> T {
        if let recordType = T.self as? any FetchableRecord.Type {
            return try recordType.init(row: scopedRow) as! T
        }
        let decoder = RecordRowDecoder<Record>(
            row: scopedRow, codingPath: storage.decoder.codingPath + [key], usesRecordStrategy: false)
        return try T(from: decoder)
    }

    /// The keyed container of the scope named by a key without a column,
    /// or nil if there is no such scope.
    func scopeContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey>?
    {
        let row = storage.row
        guard row.index(forColumn: key.stringValue) == nil, let scopedRow = row.scopeInTree(named: key.stringValue) else {
            return nil
        }
        let decoder = RecordRowDecoder<Record>(
            row: scopedRow, codingPath: storage.decoder.codingPath + [key],
            usesRecordStrategy: storage.decoder.usesRecordStrategy)
        return try decoder.container(keyedBy: type)
    }
}
