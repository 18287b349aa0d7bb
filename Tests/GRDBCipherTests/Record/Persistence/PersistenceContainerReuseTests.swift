import Foundation
import Testing
@testable import GRDBCipher

/// The persistence methods give the storage of a record's container back to
/// its plan when they are done with it, and the next record reuses it. These
/// tests guard what reuse must not break: containers that callbacks keep,
/// values of every kind, and the release of plans.
@Suite struct PersistenceContainerReuseTests {
    /// A record that keeps the container of each insertion.
    private struct Keeper: MutablePersistableRecord {
        static let databaseTableName = "keeper"
        var id: Int64?
        var name: String?
        var score: Double?
        var kept: [PersistenceContainer] = []

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["name"] = name
            container["score"] = score
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
            kept.append(inserted.persistenceContainer)
        }
    }

    private struct Item: PersistableRecord {
        static let databaseTableName = "item"
        var name: String?
        var data: [UInt8]?
        var score: Int

        func encode(to container: inout PersistenceContainer) {
            container["name"] = name
            container["data"] = data.map { Data($0) }
            container["score"] = score
        }
    }

    @Test func aContainerKeptByACallbackKeepsItsValuesWhileLaterRecordsAreWritten() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE keeper (id INTEGER PRIMARY KEY, name TEXT, score REAL)")
            var record = Keeper(id: nil, name: "first", score: 1.5)
            try record.insert(db)
            var kept = record.kept
            for index in 2...5 {
                var other = Keeper(id: nil, name: "record \(index)", score: Double(index))
                try other.insert(db)
                kept += other.kept
            }
            #expect(kept.count == 5)
            for (index, container) in kept.enumerated() {
                #expect(container.databaseValue(at: "id") == (Int64(index) + 1).databaseValue)
                let name = index == 0 ? "first" : "record \(index + 1)"
                #expect(container.databaseValue(at: "name") == name.databaseValue)
            }
            #expect(try String.fetchAll(db, sql: "SELECT name FROM keeper ORDER BY id")
                == ["first", "record 2", "record 3", "record 4", "record 5"])
        }
    }

    @Test func reusedStoragesStoreEveryKindOfValue() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT, data BLOB, score INTEGER)")
            // Texts and blobs between integers and NULLs: a reused storage
            // that held references must release them, and one that did not
            // must still store new ones.
            let items = [
                Item(name: nil, data: nil, score: 1),
                Item(name: "two", data: [2, 2], score: 2),
                Item(name: nil, data: nil, score: 3),
                Item(name: String(repeating: "long text ", count: 20), data: Array(repeating: 4, count: 100), score: 4),
                Item(name: "", data: [], score: 5),
                Item(name: nil, data: nil, score: 6),
            ]
            for item in items { try item.insert(db) }
            let rows = try Row.fetchAll(db, sql: "SELECT name, data, score FROM item ORDER BY score")
            #expect(rows.count == items.count)
            for (row, item) in zip(rows, items) {
                #expect(row["name"] as String? == item.name)
                #expect((row["data"] as Data?).map { Array($0) } == item.data)
                #expect(row["score"] as Int == item.score)
            }
        }
    }

    /// Encodes its keys in an order that depends on the record, and
    /// through two key types whose first cases have the same bytes.
    private struct Shuffled: Encodable, PersistableRecord {
        static let databaseTableName = "shuffled"
        var a: Int
        var b: String
        var c: Int

        enum FirstKeys: CodingKey { case a, b }
        enum SecondKeys: CodingKey { case c }

        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: FirstKeys.self)
            var second = encoder.container(keyedBy: SecondKeys.self)
            if a.isMultiple(of: 2) {
                try first.encode(a, forKey: .a)
                try first.encode(b, forKey: .b)
                try second.encode(c, forKey: .c)
            } else {
                // `.c` is at the position of `.a`, with the same bytes.
                try second.encode(c, forKey: .c)
                try first.encode(b, forKey: .b)
                try first.encode(a, forKey: .a)
            }
        }
    }

    @Test func encodableRecordsThatChangeTheirKeyOrderStoreEachValueInItsColumn() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE shuffled (a INTEGER, b TEXT, c INTEGER)")
            for index in 0..<6 {
                try Shuffled(a: index, b: "b\(index)", c: 100 + index).insert(db)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT a, b, c FROM shuffled ORDER BY a")
            #expect(rows.map { $0["a"] as Int } == Array(0..<6))
            #expect(rows.map { $0["b"] as String } == (0..<6).map { "b\($0)" })
            #expect(rows.map { $0["c"] as Int } == (0..<6).map { 100 + $0 })
        }
    }

    private struct AutoIncremented: MutablePersistableRecord {
        static let databaseTableName = "auto"
        var id: Int64?
        var name: String

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["name"] = name
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    @Test func insertsIntoARowidTableReuseOneStorage() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE auto (id INTEGER PRIMARY KEY, name TEXT)")
            var first = AutoIncremented(id: nil, name: "a")
            try first.insert(db)
            var second = AutoIncremented(id: nil, name: "b")
            try second.insert(db)
            let plan = try #require(db.schemaCache.recordPlans.persistencePlans.first)
            // Storing the rowid kept the layout's order: the storage came
            // back. (Weak: a strong reference would keep it from coming back.)
            weak var spare = plan.layout.spareStorage
            #expect(spare != nil)
            for name in ["c", "d", "e"] {
                var record = AutoIncremented(id: nil, name: name)
                try record.insert(db)
                #expect(record.id != nil)
                #expect(plan.layout.spareStorage === spare)
            }
            #expect(db.schemaCache.recordPlans.persistencePlans.count == 1)
            #expect([first.id, second.id] == [1, 2])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM auto ORDER BY id") == ["a", "b", "c", "d", "e"])
        }
    }

    @Test func droppingAPlanFreesItsLayoutAndSpareStorage() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT, data BLOB, score INTEGER)")
            weak var layout: PersistenceContainer.Layout?
            weak var spare: PersistenceContainer.Storage?
            try {
                try Item(name: "a", data: nil, score: 1).insert(db)
                try Item(name: "b", data: nil, score: 2).insert(db)
                let plan = try #require(db.schemaCache.recordPlans.persistencePlans.first)
                layout = plan.layout
                spare = plan.layout.spareStorage
                #expect(spare != nil)
            }()
            #expect(layout != nil)
            db.clearSchemaCache()
            #expect(layout == nil)
            #expect(spare == nil)
        }
    }
}
