/// An encoder whose containers throw `error` at the first value they get:
/// for the containers that a record cannot fill, or that mean JSON.
struct UnsupportedEncoding: Encoder, UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    let error: any Error

    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var count: Int { 0 }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(UnsupportedKeyedEncoding<Key>(codingPath: codingPath, error: error))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { self }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { throw error }
    func encode(_ value: Bool) throws { throw error }
    func encode(_ value: String) throws { throw error }
    func encode(_ value: Double) throws { throw error }
    func encode(_ value: Float) throws { throw error }
    func encode(_ value: Int) throws { throw error }
    func encode(_ value: Int8) throws { throw error }
    func encode(_ value: Int16) throws { throw error }
    func encode(_ value: Int32) throws { throw error }
    func encode(_ value: Int64) throws { throw error }
    func encode(_ value: UInt) throws { throw error }
    func encode(_ value: UInt8) throws { throw error }
    func encode(_ value: UInt16) throws { throw error }
    func encode(_ value: UInt32) throws { throw error }
    func encode(_ value: UInt64) throws { throw error }
    func encode<T: Encodable>(_ value: T) throws { throw error }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    func superEncoder() -> any Encoder { self }
}

/// The keyed container of ``UnsupportedEncoding``.
struct UnsupportedKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]
    let error: any Error

    private var encoder: UnsupportedEncoding { UnsupportedEncoding(codingPath: codingPath, error: error) }

    func encodeNil(forKey key: Key) throws { throw error }
    func encode(_ value: Bool, forKey key: Key) throws { throw error }
    func encode(_ value: String, forKey key: Key) throws { throw error }
    func encode(_ value: Double, forKey key: Key) throws { throw error }
    func encode(_ value: Float, forKey key: Key) throws { throw error }
    func encode(_ value: Int, forKey key: Key) throws { throw error }
    func encode(_ value: Int8, forKey key: Key) throws { throw error }
    func encode(_ value: Int16, forKey key: Key) throws { throw error }
    func encode(_ value: Int32, forKey key: Key) throws { throw error }
    func encode(_ value: Int64, forKey key: Key) throws { throw error }
    func encode(_ value: UInt, forKey key: Key) throws { throw error }
    func encode(_ value: UInt8, forKey key: Key) throws { throw error }
    func encode(_ value: UInt16, forKey key: Key) throws { throw error }
    func encode(_ value: UInt32, forKey key: Key) throws { throw error }
    func encode(_ value: UInt64, forKey key: Key) throws { throw error }
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw error }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey>
    {
        encoder.container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder }
    func superEncoder() -> any Encoder { encoder }
    func superEncoder(forKey key: Key) -> any Encoder { encoder }
}
