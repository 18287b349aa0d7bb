#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

let jsonPrograms: [Program] = [
    Program("json-functions") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly {
                try db.execute(sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, info TEXT NOT NULL);
                    INSERT INTO player VALUES
                      (1, 'Arthur', '{"firstName":"Arthur","country":"FR","tags":[1,2]}'),
                      (2, 'Barbara', '{"firstName":"Barbara","country":"US","tags":[]}');
                    """)
            }
            let player = Table("player")
            let info = JSONColumn("info")
            let plain = Column("info")
            step("subscript") { try player.select(info["firstName"], as: String.self).order(Column("id")).fetchAll(db) }
            step("asJSON subscript") { try player.select(plain.asJSON["country"], as: String.self).order(Column("id")).fetchAll(db) }
            step("jsonRepresentation") { try player.select(info.jsonRepresentation(atPath: "firstName"), as: String.self).fetchAll(db) }
            step("jsonExtract") { try player.select(info.jsonExtract(atPath: "$.tags"), as: String.self).fetchAll(db) }
            step("jsonExtract paths") { try player.select(info.jsonExtract(atPaths: ["$.firstName", "$.country"]), as: String.self).fetchAll(db) }
            step("filter") { try player.filter(info["country"] == "FR").select(Column("name"), as: String.self).fetchAll(db) }
            step("jsonArray plain and json") {
                try player.select(Database.jsonArray([plain, Column("name")] as [any SQLExpressible]), as: String.self).limit(1).fetchOne(db)
            }
            step("jsonArray values") { try String.fetchOne(db, player.select(Database.jsonArray([1, 2, 3])).limit(1)) }
            step("jsonObject") {
                try player.select(Database.jsonObject(["name": Column("name"), "n": 1] as KeyValuePairs<String, any SQLExpressible>), as: String.self).order(Column("id")).fetchAll(db)
            }
            step("nested builders") {
                try String.fetchOne(db, player.select(Database.jsonArray([Database.jsonObject(["a": 1] as KeyValuePairs<String, any SQLExpressible>)] as [any SQLExpressible])).limit(1))
            }
            step("jsonSet") {
                try player.select(Database.jsonSet(info, ["$.country": "DE"] as KeyValuePairs<String, any SQLExpressible>), as: String.self).order(Column("id")).fetchAll(db)
            }
            step("jsonRemove") { try player.select(Database.jsonRemove(info, atPath: "$.tags"), as: String.self).order(Column("id")).fetchAll(db) }
            step("jsonPatch") { try player.select(Database.jsonPatch(info, with: #"{"country":null}"#), as: String.self).order(Column("id")).fetchAll(db) }
            step("jsonArrayLength") { try player.select(Database.jsonArrayLength(info, atPath: "$.tags"), as: Int.self).order(Column("id")).fetchAll(db) }
            step("jsonType") { try player.select(Database.jsonType(info, atPath: "$.tags"), as: String.self).order(Column("id")).fetchAll(db) }
            step("jsonIsValid") { try player.select(Database.jsonIsValid(Column("name")), as: Bool.self).order(Column("id")).fetchAll(db) }
            step("jsonQuote") { try player.select(Database.jsonQuote(Column("name")), as: String.self).order(Column("id")).fetchAll(db) }
            step("jsonGroupArray") { try String.fetchOne(db, player.select(Database.jsonGroupArray(Column("name")))) }
            step("jsonGroupArray filter") {
                try String.fetchOne(db, player.select(Database.jsonGroupArray(Column("name"), filter: Column("id") > 1)))
            }
            step("jsonGroupObject") { try String.fetchOne(db, player.select(Database.jsonGroupObject(key: Column("name"), value: Column("id")))) }
            step("json") { try String.fetchOne(db, player.select(Database.json(#" { "a" : 1 } "#)).limit(1)) }
            step("malformed") { try String.fetchOne(db, player.select(Database.json("{oops")).limit(1)) }
        }
    },
]
