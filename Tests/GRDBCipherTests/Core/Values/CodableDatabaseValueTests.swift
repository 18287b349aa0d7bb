import Foundation
import Testing
@testable import GRDBCipher

private struct Address: Codable, Hashable, DatabaseValueConvertible {
    var street: String
    var city: String
}

/// A single-value wrapper: stored as the value it wraps.
private struct Email: Codable, Hashable, DatabaseValueConvertible {
    var value: String
    init(_ value: String) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

private enum Status: String, Codable, DatabaseValueConvertible {
    case active, archived
}

private struct Customer: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var email: Email
    var address: Address
    var tags: [String]
    var status: Status
}

/// `Codable` types that adopt `DatabaseValueConvertible`, as GRDB's JSON
/// guide advises: single values stored as themselves, others as JSON text.
@Suite struct CodableDatabaseValueTests {
    @Test func valuesAndTheirStorage() throws {
        let address = Address(street: "Rue de Belleville", city: "Paris")
        #expect(address.databaseValue == #"{"city":"Paris","street":"Rue de Belleville"}"#.databaseValue)
        #expect(Address.fromDatabaseValue(address.databaseValue) == address)
        #expect(Address.fromDatabaseValue(Data(#"{"street":"a","city":"b"}"#.utf8).databaseValue) == Address(street: "a", city: "b"))
        #expect(Address.fromDatabaseValue("not json".databaseValue) == nil)
        #expect(Address.fromDatabaseValue(.null) == nil)

        #expect(Email("a@b.c").databaseValue == "a@b.c".databaseValue)
        #expect(Email.fromDatabaseValue("a@b.c".databaseValue) == Email("a@b.c"))
        #expect(Email.fromDatabaseValue(42.databaseValue) == nil)

        #expect(Status.archived.databaseValue == "archived".databaseValue)
        #expect(Status.fromDatabaseValue("active".databaseValue) == .active)
        #expect(Status.fromDatabaseValue("unknown".databaseValue) == nil)
    }

    @Test func recordsStoreAndFilterCodableValues() throws {
        try inEncryptedDatabase { db throws in
            try db.execute(sql: "CREATE TABLE customer (id INTEGER PRIMARY KEY, email TEXT, address TEXT, tags TEXT, status TEXT)")
            let customer = Customer(
                id: 1, email: Email("a@b.c"), address: Address(street: "s", city: "c"), tags: ["x"], status: .active)
            try customer.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM customer"))
            #expect(row["email"] as String == "a@b.c")
            #expect(row["address"] as String == #"{"city":"c","street":"s"}"#)
            #expect(row["status"] as String == "active")
            #expect(row["address"] as Address == Address(street: "s", city: "c"))
            let found = try Customer.filter(Column("address") == Address(street: "s", city: "c")).fetchOne(db)
            #expect(found?.email == Email("a@b.c"))
            #expect(try Address.fetchAll(db, sql: "SELECT address FROM customer") == [Address(street: "s", city: "c")])
        }
    }
}
