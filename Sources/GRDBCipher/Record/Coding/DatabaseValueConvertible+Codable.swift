import Foundation

// Codable values as database values, as in GRDB:
//
//     struct Address: Codable, DatabaseValueConvertible {
//         var street: String
//         var city: String
//     }
//
// A value that encodes a single value (a wrapper of a string, for example)
// is stored as that value; one that needs a keyed or unkeyed container is
// stored as JSON text, from `databaseJSONEncoder()`. Decoding reads a single
// value first, and JSON (text or blob) when the type needs a container.

extension DatabaseValueConvertible {
    /// The decoder of values stored as JSON: Base64 data, dates in
    /// milliseconds since 1970, non-conforming floats rejected.
    public static func databaseJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        return decoder
    }

    /// The encoder of values stored as JSON: Base64 data, dates in
    /// milliseconds since 1970, non-conforming floats rejected, sorted keys
    /// (the same value always gives the same text).
    public static func databaseJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension DatabaseValueConvertible where Self: Encodable {
    /// The value itself when it encodes a single value, its JSON text
    /// otherwise.
    public var databaseValue: DatabaseValue { encodedDatabaseValue(self) }
}

extension DatabaseValueConvertible where Self: Encodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// Stored as its raw value.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
}

extension DatabaseValueConvertible where Self: Decodable {
    /// Decodes a single value, or JSON text or blob when the type needs a
    /// container; nil when the value does not decode.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        decodedValue(Self.self, from: dbValue)
    }
}

extension DatabaseValueConvertible where Self: Decodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// Decoded from its raw value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
    }
}

private func encodedDatabaseValue<T: Encodable & DatabaseValueConvertible>(_ value: T) -> DatabaseValue {
    let encoder = SingleDatabaseValueEncoder()
    do {
        try value.encode(to: encoder)
        if !encoder.requiresJSON, let encoded = encoder.value { return encoded }
    } catch is JSONRequiredError {
    } catch {
        preconditionFailure("\(T.self) cannot be encoded as a database value: \(error)")
    }
    do {
        let data = try T.databaseJSONEncoder().encode(value)
        return String(decoding: data, as: UTF8.self).databaseValue
    } catch {
        preconditionFailure("\(T.self) cannot be encoded as JSON: \(error)")
    }
}

private func decodedValue<T: Decodable & DatabaseValueConvertible>(_ type: T.Type, from dbValue: DatabaseValue) -> T? {
    do {
        return try T(from: SingleDatabaseValueDecoder(dbValue: dbValue))
    } catch is JSONRequiredError {
        guard let data = Data.fromDatabaseValue(dbValue) else { return nil }
        return try? T.databaseJSONDecoder().decode(T.self, from: data)
    } catch {
        return nil
    }
}

/// Encodes one value into a database value; a keyed or unkeyed container
/// means JSON.
private final class SingleDatabaseValueEncoder: Encoder, SingleValueEncodingContainer {
    var value: DatabaseValue?
    var requiresJSON = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        requiresJSON = true
        return UnsupportedEncoding(codingPath: codingPath, error: JSONRequiredError()).container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        requiresJSON = true
        return UnsupportedEncoding(codingPath: codingPath, error: JSONRequiredError())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }
    func encode(_ value: Bool) throws { self.value = value.databaseValue }
    func encode(_ value: String) throws { self.value = value.databaseValue }
    func encode(_ value: Double) throws { self.value = value.databaseValue }
    func encode(_ value: Float) throws { self.value = value.databaseValue }
    func encode(_ value: Int) throws { self.value = value.databaseValue }
    func encode(_ value: Int8) throws { self.value = value.databaseValue }
    func encode(_ value: Int16) throws { self.value = value.databaseValue }
    func encode(_ value: Int32) throws { self.value = value.databaseValue }
    func encode(_ value: Int64) throws { self.value = value.databaseValue }
    func encode(_ value: UInt) throws { self.value = value.databaseValue }
    func encode(_ value: UInt8) throws { self.value = value.databaseValue }
    func encode(_ value: UInt16) throws { self.value = value.databaseValue }
    func encode(_ value: UInt32) throws { self.value = value.databaseValue }
    func encode(_ value: UInt64) throws { self.value = value.databaseValue }

    func encode<T: Encodable>(_ value: T) throws {
        if let convertible = value as? any DatabaseValueConvertible {
            self.value = convertible.databaseValue
        } else {
            try value.encode(to: self)
        }
    }
}

/// Decodes one value from a database value; a keyed or unkeyed container
/// means JSON.
private struct SingleDatabaseValueDecoder: Decoder, SingleValueDecodingContainer {
    let dbValue: DatabaseValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw JSONRequiredError()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONRequiredError()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            if let value = convertible.fromDatabaseValue(dbValue) as? T { return value }
            throw DecodingError.typeMismatch(
                T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "cannot decode \(T.self)"))
        }
        return try T(from: self)
    }
}
