/// The `Encoder` of one column, for `Encodable` types that are not
/// ``DatabaseValueConvertible``.
///
/// A value that encodes a single value stores it in the column (an enum
/// with a `String` raw value, for example). One that asks for a keyed or
/// unkeyed container sets ``requiresJSON`` and gets a container that throws
/// ``JSONRequiredError`` at its first value: the caller stores the value's
/// JSON instead.
final class ColumnEncoder<Record: EncodableRecord, ColumnKey: CodingKey>: Encoder, SingleValueEncodingContainer {
    private let recordEncoder: RecordEncoder<Record>
    private let key: ColumnKey
    private(set) var requiresJSON = false

    init(recordEncoder: RecordEncoder<Record>, key: ColumnKey) {
        self.recordEncoder = recordEncoder
        self.key = key
    }

    var codingPath: [any CodingKey] { [key] }
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        requiresJSON = true
        return UnsupportedEncoding(codingPath: codingPath, error: JSONRequiredError()).container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        requiresJSON = true
        return UnsupportedEncoding(codingPath: codingPath, error: JSONRequiredError())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { recordEncoder.persist(.null, forKey: key) }
    func encode(_ value: Bool) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: String) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Double) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Float) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int8) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int16) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int32) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int64) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt8) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt16) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt32) throws { recordEncoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt64) throws { recordEncoder.persist(value.databaseValue, forKey: key) }

    func encode<T: Encodable>(_ value: T) throws {
        try recordEncoder.encode(value, forKey: key)
    }
}
