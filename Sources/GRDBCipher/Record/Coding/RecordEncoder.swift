import Foundation

/// The `Encoder` of a record into a ``PersistenceContainer``: coding keys
/// are columns.
/// What a ``PersistenceContainer/Layout`` keeps of the encoder of the
/// `Encodable` records that fill containers of its layout, so that the next
/// records reuse the encoder and its keyed containers (making them costs
/// more than encoding a record's columns: two allocations and generic
/// metadata lookups per record, callgrind).
@usableFromInline
class RecordEncoderBase {
    /// The record type the encoder encodes.
    @usableFromInline let recordType: ObjectIdentifier
    // Unchecked: an encoder is used by one thread at a time (`isInUse` keeps nested encodings
    // apart); the dynamic check would cost a `swift_beginAccess` per encoded value (callgrind).
    /// Whether the encoder is encoding: a nested encoding of the same type
    /// gets an encoder of its own.
    @usableFromInline @exclusivity(unchecked) final var isInUse = false
    // Unchecked: an encoder is used by one thread at a time (`isInUse` keeps nested encodings
    // apart); the dynamic check would cost a `swift_beginAccess` per encoded value (callgrind).
    /// The keyed containers, when the encoder keeps them: they refer to
    /// the encoder, and the layout empties this list when it goes away.
    @exclusivity(unchecked) final var keyedContainers: [(keyType: ObjectIdentifier, holder: AnyObject)] = []
    /// Whether the encoder keeps its keyed containers.
    let keepsContainers: Bool

    init(recordType: ObjectIdentifier, keepsContainers: Bool) {
        self.recordType = recordType
        self.keepsContainers = keepsContainers
    }
}

/// A keyed encoding container, in an object of a known type.
final class KeyedEncodingContainerHolder<Key: CodingKey> {
    let container: KeyedEncodingContainer<Key>

    init(_ container: KeyedEncodingContainer<Key>) {
        self.container = container
    }
}

@usableFromInline
final class RecordEncoder<Record: EncodableRecord>: RecordEncoderBase, Encoder {
    // Unchecked: an encoder runs on one thread, and each property of an
    // Encodable record appends here; the dynamic exclusivity check cost
    // more than the append (callgrind, record inserts).
    @usableFromInline @exclusivity(unchecked) var container = PersistenceContainer()
    private let columnStrategy = Record.databaseColumnEncodingStrategy
    private let usesDefaultKeys: Bool

    @usableFromInline
    init(keepsContainers: Bool = false) {
        if case .useDefaultKeys = columnStrategy { usesDefaultKeys = true } else { usesDefaultKeys = false }
        super.init(recordType: ObjectIdentifier(Record.self), keepsContainers: keepsContainers)
    }

    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    @usableFromInline func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard keepsContainers else {
            return KeyedEncodingContainer(RecordKeyedEncodingContainer<Record, Key>(encoder: self))
        }
        let keyType = ObjectIdentifier(Key.self)
        for entry in keyedContainers where entry.keyType == keyType {
            // Invariant: a holder's keyType is the identifier of its generic
            // argument, just compared with Key's: no dynamic cast (checked
            // in debug builds by unsafeDowncast).
            return unsafeDowncast(entry.holder, to: KeyedEncodingContainerHolder<Key>.self).container
        }
        let container = KeyedEncodingContainer(RecordKeyedEncodingContainer<Record, Key>(encoder: self))
        keyedContainers.append((keyType, KeyedEncodingContainerHolder(container)))
        return container
    }

    @usableFromInline func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnsupportedEncoding(codingPath: [], error: EncodingError.invalidValue(Record.self, EncodingError.Context(
            codingPath: [], debugDescription: "a record cannot be encoded in an unkeyed container: use a keyed one")))
    }

    @usableFromInline func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordSingleValueEncodingContainer(encoder: self)
    }

    /// The column of `key`.
    @inline(__always)
    func column(forKey key: some CodingKey) -> String {
        usesDefaultKeys ? key.stringValue : columnStrategy.column(forKey: key)
    }

    // Unchecked: an encoder is used by one thread at a time (`isInUse` keeps nested encodings
    // apart); the dynamic check would cost a `swift_beginAccess` per encoded value (callgrind).
    /// The key type and bytes of the key that set each column of the
    /// container's layout, for keys of plain types (see
    /// ``CodingKeyColumnTable/bits(of:)``): a later record that sets the
    /// same key at the same position stores its value without asking the
    /// key for its name and comparing it (callgrind, record inserts).
    @exclusivity(unchecked) private var layoutKeys: [(keyType: ObjectIdentifier, bits: UInt64)?] = []

    @inline(__always)
    func persist<Key: CodingKey>(_ value: DatabaseValue, forKey key: Key) {
        guard usesDefaultKeys, let bits = CodingKeyColumnTable.bits(of: key) else {
            container.setValue(value, forColumn: column(forKey: key))
            return
        }
        // The static type: `type(of:)` asks the runtime (callgrind).
        let keyType = ObjectIdentifier(Key.self)
        let position = container.count
        if position < layoutKeys.count, let known = layoutKeys[position], known.bits == bits, known.keyType == keyType,
           container.appendFollowingLayout(value)
        {
            return
        }
        container.setValue(value, forColumn: key.stringValue)
        if container.followsLayout && container.count == position + 1 {
            // The value went to the layout's column at `position`.
            while layoutKeys.count <= position { layoutKeys.append(nil) }
            layoutKeys[position] = (keyType, bits)
        }
    }

    /// Stores a value of any type: `Data`, `Date` and `UUID` through the
    /// record's strategies, database values as they are, other values as
    /// the single value they encode, or else as JSON.
    func encode<T: Encodable>(_ value: T, forKey key: some CodingKey) throws {
        if T.self == Data.self {
            let column = column(forKey: key)
            let dbValue = try Record.databaseDataEncodingStrategy(for: column).encode(value as! Data, codingPath: [key])
            container.setValue(dbValue, forColumn: column)
        } else if T.self == Date.self {
            let column = column(forKey: key)
            container.setValue(Record.databaseDateEncodingStrategy(for: column).encode(value as! Date), forColumn: column)
        } else if T.self == UUID.self {
            let column = column(forKey: key)
            container.setValue(Record.databaseUUIDEncodingStrategy(for: column).encode(value as! UUID), forColumn: column)
        } else if let value = value as? any DatabaseValueConvertible {
            persist(value.databaseValue, forKey: key)
        } else {
            let columnEncoder = ColumnEncoder(recordEncoder: self, key: key)
            do {
                try value.encode(to: columnEncoder)
                // An empty array or dictionary asks for a container and
                // encodes nothing: it needs JSON too.
                if !columnEncoder.requiresJSON { return }
            } catch is JSONRequiredError {
            }
            let json = try Record.databaseJSONEncoder(for: key.stringValue).encode(value)
            persist(String(decoding: json, as: UTF8.self).databaseValue, forKey: key)
        }
    }
}

/// The keyed container of a record: each key stores one column.
struct RecordKeyedEncodingContainer<Record: EncodableRecord, Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RecordEncoder<Record>
    var codingPath: [any CodingKey] { [] }

    func encodeNil(forKey key: Key) throws { encoder.persist(.null, forKey: key) }
    func encode(_ value: Bool, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: String, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Double, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Float, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int8, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int16, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int32, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: Int64, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt8, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt16, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt32, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }
    func encode(_ value: UInt64, forKey key: Key) throws { encoder.persist(value.databaseValue, forKey: key) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, forKey: key)
    }

    // The standard library's encodeIfPresent skips nil: a record stores
    // NULL instead, so that the column is part of its INSERT and UPDATE.
    func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: String?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: Double?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: Float?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: Int?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }
    func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { encoder.persist(value?.databaseValue ?? .null, forKey: key) }

    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            try encoder.encode(value, forKey: key)
        } else {
            encoder.persist(.null, forKey: key)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey>
    {
        UnsupportedEncoding(codingPath: [key], error: Self.nestingError(key)).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnsupportedEncoding(codingPath: [key], error: Self.nestingError(key))
    }

    func superEncoder() -> any Encoder { encoder }

    func superEncoder(forKey key: Key) -> any Encoder { encoder }

    private static func nestingError(_ key: Key) -> EncodingError {
        EncodingError.invalidValue(Record.self, EncodingError.Context(
            codingPath: [key],
            debugDescription: "a record cannot encode a nested container: encode a nested value instead, which is stored as JSON"))
    }
}

/// The single value container of a record: it accepts another record, or
/// a value that encodes into a keyed container.
struct RecordSingleValueEncodingContainer<Record: EncodableRecord>: SingleValueEncodingContainer {
    let encoder: RecordEncoder<Record>
    var codingPath: [any CodingKey] { [] }

    private func unsupported(_ value: Any) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: [], debugDescription: "a single value cannot be encoded into a database row (in \(Record.self))"))
    }

    func encodeNil() throws { throw unsupported(Optional<Any>.none as Any) }
    func encode(_ value: Bool) throws { throw unsupported(value) }
    func encode(_ value: String) throws { throw unsupported(value) }
    func encode(_ value: Double) throws { throw unsupported(value) }
    func encode(_ value: Float) throws { throw unsupported(value) }
    func encode(_ value: Int) throws { throw unsupported(value) }
    func encode(_ value: Int8) throws { throw unsupported(value) }
    func encode(_ value: Int16) throws { throw unsupported(value) }
    func encode(_ value: Int32) throws { throw unsupported(value) }
    func encode(_ value: Int64) throws { throw unsupported(value) }
    func encode(_ value: UInt) throws { throw unsupported(value) }
    func encode(_ value: UInt8) throws { throw unsupported(value) }
    func encode(_ value: UInt16) throws { throw unsupported(value) }
    func encode(_ value: UInt32) throws { throw unsupported(value) }
    func encode(_ value: UInt64) throws { throw unsupported(value) }

    func encode<T: Encodable>(_ value: T) throws {
        if let record = value as? any EncodableRecord {
            try record.encode(to: &encoder.container)
        } else {
            try value.encode(to: encoder)
        }
    }
}
