import Foundation
import Testing
@testable import GRDBCipher

private typealias Player = Readme.Player
private typealias Citizenship = Readme.Citizenship

/// Errors of the query interface, compared with GRDB's documentation. Where
/// GRDB traps (a precondition failure), GRDBCipher throws instead: a bad
/// key must not crash an application.
@Suite struct ReadmeQueryInterfaceErrorTests {
    @Test func findOfAMissingRecordThrowsRecordNotFound() throws {
        try withReadmeDatabase { db throws in
            let error = #expect(throws: RecordError.self) { try Player.find(db, id: 42) }
            guard case let .recordNotFound(tableName, key)? = error else {
                Issue.record("expected recordNotFound, got \(String(describing: error))")
                return
            }
            #expect(tableName == "player")
            #expect(key == ["id": 42.databaseValue])
            #expect(error?.description == "Key not found in table player: [id:42]")

            let keyError = #expect(throws: RecordError.self) {
                try Citizenship.find(db, key: ["citizenId": 2, "countryCode": "US"])
            }
            #expect(keyError?.description == #"Key not found in table citizenship: [citizenId:2 countryCode:"US"]"#)
        }
    }

    @Test func aKeyThatIsNotUniqueThrowsInsteadOfTrapping() throws {
        try withReadmeDatabase { db throws in
            // GRDB: precondition failure "table player has no unique key on column(s) team".
            let error = #expect(throws: DatabaseError.self) {
                try Player.fetchOne(db, key: ["team": "Reds"])
            }
            #expect(error?.message == "table player has no unique key on column(s) team")
            #expect(throws: DatabaseError.self) { try Player.filter(key: ["name": "Arthur"]).fetchAll(db) }
            #expect(throws: DatabaseError.self) { try Player.exists(db, key: ["team": "Reds"]) }
            #expect(throws: DatabaseError.self) { try Player.deleteOne(db, key: ["team": "Reds"]) }
            #expect(try Player.fetchCount(db) == 4)
        }
    }

    @Test func unknownColumnsAndTablesAreDatabaseErrorsWithTheirSQL() throws {
        try withReadmeDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try Player.filter(Column("nope") == 1).fetchAll(db)
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.sql == #"SELECT * FROM "player" WHERE "nope" = ?"#)

            let orderError = #expect(throws: DatabaseError.self) { try Player.order(Column("nope")).fetchAll(db) }
            #expect(orderError?.sql == #"SELECT * FROM "player" ORDER BY "nope""#)

            #expect(throws: DatabaseError.self) { try Table("nowhere").fetchAll(db) }
            #expect(throws: DatabaseError.self) { try Table("nowhere").fetchCount(db) }
        }
    }

    @Test func interpolatedValuesAreAlwaysBound() throws {
        try withReadmeDatabase { db throws in
            let hostile = "'; DROP TABLE player; --"
            let requests: [(String, StatementArguments)] = try [
                generated(db, Player.filter(literal: "name = \(hostile)")),
                generated(db, Player.filter { $0.name == hostile }),
                generated(db, Player.select(literal: "\(hostile) AS x")),
                generated(db, Player.order(literal: "name = \(hostile)")),
                generated(db, SQLRequest<Row>("SELECT \(hostile)")),
                generated(db, Player.filter { [hostile, "' OR 1=1"].contains($0.name) }),
            ]
            for (sql, arguments) in requests {
                #expect(!sql.contains("DROP"))
                #expect(!sql.contains("OR 1=1"))
                #expect(arguments.values.first == hostile.databaseValue)
            }
            #expect(try String.fetchOne(db, literal: "SELECT \(hostile)") == hostile)
            #expect(try Player.fetchCount(db) == 4)
        }
    }
}
