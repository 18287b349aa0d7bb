import Foundation
import Testing
@testable import GRDBCipher

/// SQLite's JSON functions in the query interface, on an encrypted
/// database: the SQL (checked against GRDB 7.10 by `make compat`, program
/// `json-functions`, for the functions that SQLite 3.40 has) and the results.
@Suite struct JSONFunctionsTests {
    let info = JSONColumn("info")
    let plain = Column("info")
    let name = Column("name")
    let player = Table("player")

    private func withPlayers(_ body: (Database) throws -> Void) throws {
        try inEncryptedDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, info TEXT NOT NULL);
                INSERT INTO player VALUES
                  (1, 'Arthur', '{"firstName":"Arthur","country":"FR","tags":[1,2]}'),
                  (2, 'Barbara', '{"firstName":"Barbara","country":"US","tags":[]}');
                """)
            try body(db)
        }
    }

    @Test func operatorsReadPartsOfJSONValues() throws {
        try withPlayers { db throws in
            let firstNames = player.select(info["firstName"], as: String.self).order(Column("id"))
            #expect(try generated(db, firstNames).0 == #"SELECT "info" ->> ? FROM "player" ORDER BY "id""#)
            #expect(try firstNames.fetchAll(db) == ["Arthur", "Barbara"])
            #expect(try player.select(plain.asJSON["country"], as: String.self).fetchSet(db) == ["FR", "US"])
            let quoted = player.select(info.jsonRepresentation(atPath: "firstName"), as: String.self).order(Column("id"))
            #expect(try generated(db, quoted).0 == #"SELECT "info" -> ? FROM "player" ORDER BY "id""#)
            #expect(try quoted.fetchAll(db) == [#""Arthur""#, #""Barbara""#])
            let french = player.filter(info["country"] == "FR").select(name, as: String.self)
            #expect(try french.fetchAll(db) == ["Arthur"])
        }
    }

    @Test func buildersParseJSONValuesAndKeepStrings() throws {
        try withPlayers { db throws in
            let mixed = player
                .select(Database.jsonArray([info, plain] as [any SQLExpressible]), as: String.self)
                .filter(Column("id") == 2)
            // SQLCipher 4.6.1 has SQLite 3.46: JSON values are parsed with
            // JSONB(), as GRDB does from SQLite 3.45 on.
            #expect(try generated(db, mixed).0
                == #"SELECT JSON_ARRAY(JSONB("info"), "info") FROM "player" WHERE "id" = ?"#)
            #expect(try mixed.fetchOne(db)
                == #"[{"firstName":"Barbara","country":"US","tags":[]},"{\"firstName\":\"Barbara\",\"country\":\"US\",\"tags\":[]}"]"#)

            // A function that returns JSON needs no parsing.
            let nested = Database.jsonArray([Database.jsonObject(["a": 1] as KeyValuePairs<String, any SQLExpressible>).asJSON] as [any SQLExpressible])
            #expect(try String.fetchOne(db, player.select(nested).limit(1)) == #"[{"a":1}]"#)
            #expect(try generated(db, player.select(nested).limit(1)).0
                == #"SELECT JSON_ARRAY(JSON_OBJECT(?, ?)) FROM "player" LIMIT 1"#)

            // A string made a JSON value is parsed; as a plain string it is quoted.
            let text = #"{"b":[true]}"#
            #expect(try String.fetchOne(db, player.select(Database.jsonArray([text.databaseValue.asJSON] as [any SQLExpressible])).limit(1))
                == #"[{"b":[true]}]"#)
            #expect(try String.fetchOne(db, player.select(Database.jsonArray([text])).limit(1))
                == #"["{\"b\":[true]}"]"#)
        }
    }

    @Test func aJSONColumnOfAnAliasIsStillAJSONValue() throws {
        try withPlayers { db throws in
            let alias = TableAlias()
            let request = player.aliased(alias).select(Database.jsonArray([alias[info]] as [any SQLExpressible]), as: String.self)
                .filter(alias[Column("id")] == 1)
            #expect(try generated(db, request).0.contains(#"JSON_ARRAY(JSONB("#))
            #expect(try request.fetchOne(db) == #"[{"firstName":"Arthur","country":"FR","tags":[1,2]}]"#)
        }
    }

    @Test func aliasesKeepJSONColumnsJSON() throws {
        try withPlayers { db throws in
            let p = TableAlias(name: "p")
            let request = player.aliased(p).select(p[info]["country"], p[info].jsonRepresentation(atPath: "tags"))
            #expect(try generated(db, request).0 == #"SELECT "p"."info" ->> ?, "p"."info" -> ? FROM "player" "p""#)
            #expect(try Row.fetchAll(db, request).map { $0[0] as String } == ["FR", "US"])
        }
    }

    /// As in GRDB, a collation moves out of the `->>` and `->` operators.
    @Test func aCollationAppliesToTheExtractedValue() throws {
        try withPlayers { db throws in
            let request = player.filter(plain.collating(.nocase).asJSON["country"] == "fr").select(name, as: String.self)
            #expect(try generated(db, request).0
                == #"SELECT "name" FROM "player" WHERE ("info" ->> ?) = ? COLLATE NOCASE"#)
            #expect(try request.fetchAll(db) == ["Arthur"])
        }
    }

    @Test func editingFunctions() throws {
        try withPlayers { db throws in
            let assignments: KeyValuePairs<String, any SQLExpressible> = ["$.country": "DE", "$.extra": info.jsonExtract(atPath: "$.tags")]
            let set = player.select(Database.jsonSet(info, assignments), as: String.self).filter(Column("id") == 1)
            #expect(try generated(db, set).0 == #"SELECT JSON_SET("info", ?, ?, ?, JSON_EXTRACT("info", ?)) FROM "player" WHERE "id" = ?"#)
            #expect(try set.fetchOne(db) == #"{"firstName":"Arthur","country":"DE","tags":[1,2],"extra":[1,2]}"#)
            let inserted = Database.jsonInsert(info, ["$.country": "DE", "$.city": "Paris"] as KeyValuePairs<String, any SQLExpressible>)
            #expect(try String.fetchOne(db, player.select(inserted).filter(Column("id") == 1))
                == #"{"firstName":"Arthur","country":"FR","tags":[1,2],"city":"Paris"}"#)
            let replaced = Database.jsonReplace(info, ["$.country": "DE", "$.city": "Paris"] as KeyValuePairs<String, any SQLExpressible>)
            #expect(try String.fetchOne(db, player.select(replaced).filter(Column("id") == 1))
                == #"{"firstName":"Arthur","country":"DE","tags":[1,2]}"#)
            #expect(try String.fetchOne(db, player.select(Database.jsonRemove(info, atPaths: ["$.tags", "$.country"])).filter(Column("id") == 1))
                == #"{"firstName":"Arthur"}"#)
            #expect(try String.fetchOne(db, player.select(Database.jsonPatch(info, with: #"{"tags":null}"#)).filter(Column("id") == 2))
                == #"{"firstName":"Barbara","country":"US"}"#)
        }
    }

    @Test func inspectionFunctions() throws {
        try withPlayers { db throws in
            #expect(try player.select(Database.jsonArrayLength(info, atPath: "$.tags"), as: Int.self).order(Column("id")).fetchAll(db) == [2, 0])
            #expect(try Int.fetchOne(db, player.select(Database.jsonArrayLength(#"[1,2,3]"#)).limit(1)) == 3)
            #expect(try String.fetchOne(db, player.select(Database.jsonType(info)).limit(1)) == "object")
            #expect(try String.fetchOne(db, player.select(Database.jsonType(info, atPath: "$.tags[0]")).limit(1)) == "integer")
            #expect(try player.select(Database.jsonIsValid(name), as: Bool.self).fetchAll(db) == [false, false])
            #expect(try Bool.fetchOne(db, player.select(Database.jsonIsValid(info, options: .json)).limit(1)) == true)
            #expect(try generated(db, player.select(Database.jsonIsValid(info, options: [.json, .json5]))).0
                == #"SELECT JSON_VALID("info", ?) FROM "player""#)
            #expect(try Int.fetchOne(db, player.select(Database.jsonErrorPosition("{oops")).limit(1))! > 0)
            #expect(try String.fetchOne(db, player.select(Database.jsonQuote(name)).filter(Column("id") == 1)) == #""Arthur""#)
            #expect(try String.fetchOne(db, player.select(Database.jsonExtract(info, atPaths: ["$.firstName", "$.tags"])).filter(Column("id") == 1))
                == #"["Arthur",[1,2]]"#)
        }
    }

    @Test func aggregates() throws {
        try withPlayers { db throws in
            let names = player.select(Database.jsonGroupArray(name, orderBy: name.desc, filter: Column("id") > 0))
            #expect(try generated(db, names).0
                == #"SELECT JSON_GROUP_ARRAY("name" ORDER BY "name" DESC) FILTER (WHERE "id" > ?) FROM "player""#)
            #expect(try String.fetchOne(db, names) == #"["Barbara","Arthur"]"#)
            let infos = player.select(Database.jsonGroupObject(key: name, value: info))
            #expect(try generated(db, infos).0 == #"SELECT JSON_GROUP_OBJECT("name", JSONB("info")) FROM "player""#)
            let object = try #require(try String.fetchOne(db, infos))
            #expect(object.hasPrefix(#"{"Arthur":{"firstName":"Arthur""#))
        }
    }

    @Test func binaryJSON() throws {
        try withPlayers { db throws in
            let blob = player.select(Database.jsonbObject(["n": name] as KeyValuePairs<String, any SQLExpressible>)).filter(Column("id") == 1)
            #expect(try generated(db, blob).0 == #"SELECT JSONB_OBJECT(?, "name") FROM "player" WHERE "id" = ?"#)
            let data = try #require(try Data.fetchOne(db, blob))
            #expect(try String.fetchOne(db, sql: "SELECT json(?)", arguments: [data]) == #"{"n":"Arthur"}"#)
            #expect(try String.fetchOne(db, player.select(Database.json(Database.jsonbArray([1, 2]))).limit(1)) == "[1,2]")
            #expect(try String.fetchOne(db, player.select(Database.json(Database.jsonbExtract(info, atPath: "$.tags"))).limit(1)) == "[1,2]")
            #expect(try String.fetchOne(db, player.select(Database.json(Database.jsonbSet(Database.jsonb(info), ["$.x": 1] as KeyValuePairs<String, any SQLExpressible>))).filter(Column("id") == 2))
                == #"{"firstName":"Barbara","country":"US","tags":[],"x":1}"#)
            #expect(try String.fetchOne(db, player.select(Database.json(Database.jsonbGroupArray(Column("id")))))
                == "[1,2]")
        }
    }

    @Test func malformedJSONThrowsTheSQLiteError() throws {
        try withPlayers { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, player.select(Database.json("{oops")).limit(1))
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "malformed JSON")
        }
    }
}
