/// The `Decoder` of a value from one column, for `Decodable` types that are
/// not ``DatabaseValueConvertible``.
///
/// A value that asks for a single value container reads the column (an
/// enum with a `String` raw value, for example); one that asks for a keyed
/// or unkeyed container throws ``JSONRequiredError``, and the caller
/// decodes the column's JSON instead.
struct ColumnDecoder<Record: FetchableRecord>: Decoder, SingleValueDecodingContainer {
    let row: Row
    let index: Int
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw JSONRequiredError()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONRequiredError()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { row.hasNull(atIndex: index) }

    private func fast<V: DatabaseValueConvertible & StatementColumnConvertible>(_ type: V.Type) throws -> V {
        try RecordColumnDecoding<Record>.decode(type, row: row, index: index)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try fast(type) }
    func decode(_ type: String.Type) throws -> String { try fast(type) }
    func decode(_ type: Double.Type) throws -> Double { try fast(type) }
    func decode(_ type: Float.Type) throws -> Float { try fast(type) }
    func decode(_ type: Int.Type) throws -> Int { try fast(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try fast(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try fast(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try fast(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try fast(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try fast(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try fast(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try fast(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try fast(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try fast(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Strategies see the column's own name here, as in GRDB.
        let column = row.columnNames[index]
        if let value = try RecordColumnDecoding<Record>.decodeColumnValue(T.self, row: row, index: index, column: column) {
            return value
        }
        return try T(from: self)
    }
}
