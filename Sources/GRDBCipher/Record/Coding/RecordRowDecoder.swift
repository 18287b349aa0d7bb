/// The `Decoder` of a record from a whole row: coding keys are columns.
///
/// Small enough (two references and a flag) to fit in an existential
/// without an allocation.
@usableFromInline
struct RecordRowDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    @usableFromInline let codingPath: [any CodingKey]
    /// Whether keys map to columns with the record's column strategy (the
    /// record itself), or by name (a value decoded from the whole row).
    let usesRecordStrategy: Bool

    @usableFromInline
    init(row: Row, codingPath: [any CodingKey], usesRecordStrategy: Bool) {
        self.row = row
        self.codingPath = codingPath
        self.usesRecordStrategy = usesRecordStrategy
    }

    @usableFromInline
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let usesRecordStrategy = self.usesRecordStrategy
        // A record of a cursor reuses the container of the previous one.
        let cache = codingPath.isEmpty ? row.keyedContainerCache : nil
        if let cache, let container = cache.container(
            recordType: ObjectIdentifier(Record.self), keyType: Key.self, usesRecordStrategy: usesRecordStrategy)
        {
            return container
        }
        let table = CodingKeyColumnTable.table(
            for: row, record: Record.self, key: Key.self, usesRecordStrategy: usesRecordStrategy,
            strategy: usesRecordStrategy ? Record.databaseColumnDecodingStrategy : .useDefaultKeys)
        table.startRow()
        let container = KeyedDecodingContainer(RowKeyedDecodingContainer<Record, Key>(decoder: self, table: table))
        cache?.store(KeyedDecodingContainerCache.Entry(
            recordType: ObjectIdentifier(Record.self), keyType: ObjectIdentifier(Key.self),
            usesRecordStrategy: usesRecordStrategy, table: table,
            holder: KeyedDecodingContainerCache.Holder(container)))
        return container
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(UnkeyedDecodingContainer.self, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "a database row cannot be decoded as an unkeyed container (in \(Record.self))"))
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard let key = codingPath.last else {
            return RowSingleValueDecodingContainer<Record>(row: row, usesRecordStrategy: usesRecordStrategy)
        }
        // A value decoded from the whole row under `key` wants one value:
        // the column of that name.
        guard let index = row.index(forColumn: key.stringValue) else {
            throw RowDecodingError.columnNotFound(key.stringValue, row: row)
        }
        return ColumnDecoder<Record>(row: row, index: index, codingPath: codingPath)
    }
}

/// The single value of a whole row: its first column for a plain value,
/// the row itself for a record or a keyed value.
struct RowSingleValueDecodingContainer<Record: FetchableRecord>: SingleValueDecodingContainer {
    let row: Row
    let usesRecordStrategy: Bool
    var codingPath: [any CodingKey] { [] }

    private var firstColumn: ColumnDecoder<Record> {
        get throws {
            guard row.count > 0 else {
                throw DecodingError.valueNotFound(Any.self, DecodingError.Context(
                    codingPath: [], debugDescription: "the row has no column (in \(Record.self))"))
            }
            return ColumnDecoder(row: row, index: 0, codingPath: [])
        }
    }

    func decodeNil() -> Bool { row.count == 0 || row.hasNull(atIndex: 0) }
    func decode(_ type: Bool.Type) throws -> Bool { try firstColumn.decode(type) }
    func decode(_ type: String.Type) throws -> String { try firstColumn.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try firstColumn.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try firstColumn.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try firstColumn.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try firstColumn.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try firstColumn.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try firstColumn.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try firstColumn.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try firstColumn.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try firstColumn.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try firstColumn.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try firstColumn.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try firstColumn.decode(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let recordType = T.self as? any FetchableRecord.Type {
            return try recordType.init(row: row) as! T
        }
        return try T(from: RecordRowDecoder<Record>(row: row, codingPath: [], usesRecordStrategy: usesRecordStrategy))
    }
}
