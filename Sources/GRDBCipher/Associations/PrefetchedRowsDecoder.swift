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
