import Foundation
import Testing
@testable import GRDBCipher

/// `databaseJSONEncoder()`/`databaseJSONDecoder()` are requirements of
/// `DatabaseValueConvertible`, as in GRDB: a type's own implementation is
/// the one used, even where the value is handled generically.
@Suite struct JSONCodingCustomizationTests {
    private struct Address: Codable, DatabaseValueConvertible, Equatable {
        var streetName: String
        var zipCode: String

        static func databaseJSONEncoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = .sortedKeys
            return encoder
        }

        static func databaseJSONDecoder() -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return decoder
        }
    }

    @Test func aTypesOwnEncoderAndDecoderAreUsed() throws {
        let address = Address(streetName: "Main Street", zipCode: "12345")
        #expect(address.databaseValue == #"{"street_name":"Main Street","zip_code":"12345"}"#.databaseValue)
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (address TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [address])
            #expect(try String.fetchOne(db, sql: "SELECT address FROM t") == #"{"street_name":"Main Street","zip_code":"12345"}"#)
            #expect(try Address.fetchOne(db, sql: "SELECT address FROM t") == address)
            #expect(try Row.fetchOne(db, sql: "SELECT address FROM t")?["address"] == address)
        }
    }
}
