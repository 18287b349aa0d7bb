/// The keyed container of a record decoded from a row: each key reads the
/// column that its ``CodingKeyColumnTable`` found for it.
///
/// The container holds a single reference: the standard library's
/// `KeyedDecodingContainer` copies it on every `decode` call, and each
/// reference of a copy costs a retain and a release (callgrind).
struct RowKeyedDecodingContainer<Record: FetchableRecord, Key: CodingKey>: KeyedDecodingContainerProtocol {
    final class Storage {
        let decoder: RecordRowDecoder<Record>
        let table: CodingKeyColumnTable
        let row: Row

        init(decoder: RecordRowDecoder<Record>, table: CodingKeyColumnTable) {
            self.decoder = decoder
            self.table = table
            self.row = decoder.row
        }
    }

    let storage: Storage

    init(decoder: RecordRowDecoder<Record>, table: CodingKeyColumnTable) {
        storage = Storage(decoder: decoder, table: table)
    }

    private var decoder: RecordRowDecoder<Record> { storage.decoder }
    private var table: CodingKeyColumnTable { storage.table }
    var codingPath: [any CodingKey] { decoder.codingPath }
    private var row: Row { storage.row }

    var allKeys: [Key] {
        (table.availableKeyNames(in: row) + scopeKeyNames).compactMap { Key(stringValue: $0) }
    }

    /// The slot of `key` in the table.
    @inline(__always)
    private func slot(_ key: Key) -> Int {
        table.slot(for: key, in: row)
    }

    /// The column index of `key`, or nil when the row has no such column.
    @inline(__always)
    private func columnIndex(_ key: Key) -> Int? {
        // The slot first: finding it may append to the entries.
        let slot = slot(key)
        return table.entries[slot].index
    }

    func contains(_ key: Key) -> Bool {
        columnIndex(key) != nil || row.scopeInTree(named: key.stringValue) != nil
            || row.prefetchedRows[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let index = columnIndex(key) else { return scopeIsNil(key) }
        return row.hasNull(atIndex: index)
    }

    // MARK: - Values that read themselves from SQLite

    // These run unspecialized (the standard library's container box calls
    // them through a witness table), so they avoid `RecordColumnDecoding<Record>`,
    // whose metadata would be looked up on every call: the record type is
    // only needed for errors.

    @inline(__always)
    private func fast<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, _ key: Key) throws -> V
    {
        let storage = self.storage
        let slot = storage.table.slot(for: key, in: storage.row)
        guard let index = storage.table.entries[slot].index else {
            throw RowDecodingError.columnNotFound(storage.table.entries[slot].column, row: storage.row)
        }
        return try FastColumnDecoding.decode(type, row: storage.row, index: index)
    }

    @inline(__always)
    private func fastIfPresent<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, _ key: Key) throws -> V?
    {
        let storage = self.storage
        let slot = storage.table.slot(for: key, in: storage.row)
        guard let index = storage.table.entries[slot].index else { return nil }
        if storage.row.hasNull(atIndex: index) { return nil }
        return try FastColumnDecoding.decode(type, row: storage.row, index: index)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try fast(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try fast(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try fast(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try fast(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try fast(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try fast(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try fast(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try fast(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try fast(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try fast(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try fast(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try fast(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try fast(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try fast(type, key) }

    // The standard library's decodeIfPresent would look the key up three
    // times (contains, decodeNil, decode): these look it up once.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try fastIfPresent(type, key) }

    // MARK: - Other values

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let slot = slot(key)
        let entry = table.entries[slot]
        guard let index = entry.index else {
            return try decodeFromWholeRow(type, forKey: key)
        }
        return try decodeColumn(type, forKey: key, slot: slot, entry: entry, index: index)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let slot = slot(key)
        let entry = table.entries[slot]
        guard let index = entry.index else { return try decodeScopeIfPresent(type, forKey: key) }
        guard !row.hasNull(atIndex: index) else { return nil }
        return try decodeColumn(type, forKey: key, slot: slot, entry: entry, index: index)
    }

    private func decodeColumn<T: Decodable>(
        _ type: T.Type, forKey key: Key, slot: Int, entry: CodingKeyColumnTable.Entry, index: Int) throws -> T
    {
        // Prefer the database representation to Decodable: a Date reads
        // SQLite's date formats, a UUID a 16-byte blob.
        if let value = try RecordColumnDecoding<Record>.decodeColumnValue(T.self, row: row, index: index, column: entry.column) {
            return value
        }
        let valuePath = codingPath + [key]
        if entry.jsonType != ObjectIdentifier(T.self) {
            do {
                return try T(from: ColumnDecoder<Record>(row: row, index: index, codingPath: valuePath))
            } catch is JSONRequiredError {
                // Values of this type need JSON: later rows skip this attempt.
                table.setNeedsJSON(T.self, slot: slot)
            } catch let error as DecodingError {
                throw RecordColumnDecoding<Record>.hidingValues(error, row: row, codingPath: [])
            }
        }
        return try RecordColumnDecoding<Record>.decodeJSON(
            T.self, row: row, index: index, key: key.stringValue, codingPath: valuePath)
    }

    /// A key that is no column: as in GRDB, one such key per row decodes
    /// from the whole row (a record made of records), a second one throws.
    private func decodeFromWholeRow<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A key that names prefetched rows or a scope decodes from them, as in GRDB.
        if let value = try decodePrefetchedRows(type, forKey: key) { return value }
        if let scopedRow = row.scopeInTree(named: key.stringValue) {
            return try decodeScope(type, from: scopedRow, forKey: key)
        }
        if let rootKey = table.rootKey {
            let keys = [rootKey, key.stringValue].sorted()
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No such key: \(keys.joined(separator: " or "))"))
        }
        table.rootKey = key.stringValue
        if let recordType = T.self as? any FetchableRecord.Type {
            return try recordType.init(row: row) as! T
        }
        return try T(from: RecordRowDecoder<Record>(row: row, codingPath: codingPath + [key], usesRecordStrategy: false))
    }

    // MARK: - Nested containers

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey>
    {
        if let container = try scopeContainer(keyedBy: type, forKey: key) { return container }
        throw DecodingError.typeMismatch(KeyedDecodingContainer<NestedKey>.self, DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription: "a column cannot be decoded as a nested keyed container (in \(Record.self))"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(UnkeyedDecodingContainer.self, DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription: "a column cannot be decoded as a nested unkeyed container (in \(Record.self))"))
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}
