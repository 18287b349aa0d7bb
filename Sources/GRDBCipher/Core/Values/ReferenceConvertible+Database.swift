import Foundation

// A Foundation value type stores and decodes as its reference type does, with
// nothing to implement, when that reference type is DatabaseValueConvertible:
//
//     extension MyValue: DatabaseValueConvertible { }   // MyValue.ReferenceType: DatabaseValueConvertible
//
// Date, Data, URL, UUID and the others of this library have their own, faster
// implementations, which take precedence.

extension DatabaseValueConvertible where Self: ReferenceConvertible, Self.ReferenceType: DatabaseValueConvertible {
    /// The database value of the bridged reference.
    public var databaseValue: DatabaseValue { bridgedReference.databaseValue }

    /// Decodes the reference type, then bridges it to this type; nil when
    /// either step fails.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        ReferenceType.fromDatabaseValue(dbValue).flatMap(Self.bridged(from:))
    }
}

// The same defaults win over the JSON defaults of Codable values: a Codable
// Foundation value keeps the storage of its reference type.

extension DatabaseValueConvertible
where Self: Decodable & ReferenceConvertible, Self.ReferenceType: DatabaseValueConvertible
{
    /// Decodes the reference type, then bridges it to this type.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        ReferenceType.fromDatabaseValue(dbValue).flatMap(Self.bridged(from:))
    }
}

extension DatabaseValueConvertible
where Self: Encodable & ReferenceConvertible, Self.ReferenceType: DatabaseValueConvertible
{
    /// The database value of the bridged reference.
    public var databaseValue: DatabaseValue { bridgedReference.databaseValue }
}

extension ReferenceConvertible {
    /// The value as its Foundation reference type, to which Foundation
    /// bridges every `ReferenceConvertible` value.
    fileprivate var bridgedReference: ReferenceType {
        self as! ReferenceType
    }

    /// The value of a reference, or nil if it does not bridge to this type.
    fileprivate static func bridged(from reference: ReferenceType) -> Self? {
        reference as? Self
    }
}
