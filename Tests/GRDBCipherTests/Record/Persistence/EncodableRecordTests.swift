import Foundation
import Testing
@testable import GRDBCipher

/// The README's `Place`, encoding by hand.
private struct Place: EncodableRecord {
    var id: Int64?
    var title: String
    var latitude: Double
    var longitude: Double

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["title"] = title
        container["latitude"] = latitude
        container["longitude"] = longitude
    }
}

private struct Player: EncodableRecord {
    var id: Int64
    var score: Int
    var hasAward: Bool

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["score"] = score
        container["hasAward"] = hasAward
    }
}

private struct Failing: EncodableRecord {
    struct Failure: Error {}
    func encode(to container: inout PersistenceContainer) throws { throw Failure() }
}

@Suite("EncodableRecord and PersistenceContainer")
struct EncodableRecordTests {
    @Test func handWrittenEncodeFillsTheContainerInOrder() throws {
        let paris = Place(id: nil, title: "Paris", latitude: 48.85341, longitude: 2.3488)
        let container = try PersistenceContainer(paris)
        #expect(container.map(\.0) == ["id", "title", "latitude", "longitude"])
        #expect(container.map(\.1) == [.null, "Paris".databaseValue, 48.85341.databaseValue, 2.3488.databaseValue])
        #expect(container.count == 4)
        #expect(container.columns == ["id", "title", "latitude", "longitude"])
        #expect(container.values == container.map(\.1))
    }

    @Test func aContainerFollowsTheLayoutOfAnotherOnlyWithItsColumnsInItsOrder() throws {
        let layout = PersistenceContainer.Layout(try PersistenceContainer(
            Place(id: nil, title: "Paris", latitude: 48.85341, longitude: 2.3488)))
        func filled(_ assignments: [(String, Int)]) -> PersistenceContainer {
            var container = PersistenceContainer(layout: layout)
            for (column, value) in assignments { container[column] = value }
            return container
        }
        let same = filled([("id", 1), ("title", 2), ("latitude", 3), ("longitude", 4)])
        #expect(same.hasColumns(of: layout))
        #expect(!filled([("id", 1), ("title", 2), ("longitude", 4), ("latitude", 3)]).hasColumns(of: layout))
        #expect(!filled([("id", 1), ("title", 2), ("latitude", 3)]).hasColumns(of: layout))
        #expect(!filled([("id", 1), ("title", 2), ("latitude", 3), ("longitude", 4), ("extra", 5)]).hasColumns(of: layout))
        #expect(!PersistenceContainer(layout: nil).hasColumns(of: layout))

        // Setting a column again, in any case, replaces its value; the
        // columns stay the layout's, in its order, so the container still
        // follows it (an insertion that stores the rowid does this).
        let twice = filled([("id", 1), ("ID", 2), ("title", 3), ("latitude", 4), ("longitude", 5)])
        #expect(twice.columns == ["id", "title", "latitude", "longitude"])
        #expect(twice.databaseValue(at: "id") == 2.databaseValue)
        #expect(twice.hasColumns(of: layout))
        let late = filled([("id", 1), ("title", 2), ("latitude", 3), ("longitude", 4), ("TITLE", 5)])
        #expect(late.columns == ["id", "title", "latitude", "longitude"])
        #expect(late.databaseValue(at: "title") == 5.databaseValue)
        #expect(late.hasColumns(of: layout))
        let caseVariant = filled([("id", 1), ("TITLE", 2), ("latitude", 3), ("longitude", 4)])
        #expect(caseVariant.columns == ["id", "TITLE", "latitude", "longitude"])
        #expect(!caseVariant.hasColumns(of: layout))

        // Lookups in a container filled along the layout are case-insensitive.
        #expect(same.databaseValue(at: "LONGITUDE") == 4.databaseValue)
        var replaced = same
        replaced["Title"] = 9
        #expect(replaced.columns == ["id", "title", "latitude", "longitude"])
        #expect(replaced.databaseValue(at: "title") == 9.databaseValue)
    }

    @Test func typedAndExistentialSettersStoreTheSameValues() throws {
        // `container[c] = value` with a value of a known type goes through
        // the generic setter; the same values through `any` must match.
        let int: Int = 1
        let missing: Int? = nil
        let nested: Int?? = .some(nil)
        let date = Date(timeIntervalSince1970: 1_000_000)
        var typed = PersistenceContainer()
        typed["int"] = int
        typed["missing"] = missing
        typed["nested"] = nested
        typed["date"] = date
        typed[Column("text")] = "O'Brien"
        typed["uuid"] = UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70")
        var erased = PersistenceContainer()
        let values: [(String, (any DatabaseValueConvertible)?)] = [
            ("int", int), ("missing", missing), ("nested", nested), ("date", date), ("text", "O'Brien"),
            ("uuid", UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70")),
        ]
        for (column, value) in values { erased[column] = value }
        #expect(typed.map(\.0) == erased.map(\.0))
        #expect(typed.map(\.1) == erased.map(\.1))
        #expect(typed.map(\.1)[1] == .null && typed.map(\.1)[2] == .null)
        // Reading back still gives GRDB's existential.
        let read: (any DatabaseValueConvertible)? = typed["int"]
        #expect(read?.databaseValue == 1.databaseValue)
        // The typed setter keeps the first spelling of a column, as the other.
        typed["INT"] = 2
        #expect(typed.columns.first == "int" && typed["int"]?.databaseValue == 2.databaseValue)
    }

    @Test func columnNamesAreCaseInsensitive() throws {
        var container = PersistenceContainer()
        container["name"] = "Arthur"
        container["score"] = 100
        container["NAME"] = "Barbara"
        #expect(container.count == 2)
        #expect(container.map(\.0) == ["name", "score"])
        #expect(container["Name"] as? DatabaseValue == "Barbara".databaseValue)
        #expect(container.databaseValue(at: "SCORE") == 100.databaseValue)
        #expect(container.databaseValue(at: "missing") == .null)
        #expect(container["missing"] == nil)
        // Setting nil stores NULL: the column stays.
        container["score"] = nil
        #expect(container.count == 2)
        #expect(container["score"] as? DatabaseValue == .null)
        // Non-ASCII names compare case-insensitively too.
        container["ÉTÉ"] = 1
        container["été"] = 2
        #expect(container.count == 3)
        #expect(container.databaseValue(at: "Été") == 2.databaseValue)
    }

    @Test func manyColumnsStayDistinct() {
        var container = PersistenceContainer(layout: nil)
        for i in 0..<100 { container["c\(i)"] = i }
        for i in 0..<100 { container["C\(i)"] = i * 2 }
        #expect(container.count == 100)
        #expect(container.databaseValue(at: "c57") == 114.databaseValue)
    }

    @Test func databaseDictionaryHasTheEncodedColumns() throws {
        let player = Player(id: 1, score: 1000, hasAward: false)
        #expect(try player.databaseDictionary == ["id": 1.databaseValue, "score": 1000.databaseValue, "hasAward": 0.databaseValue])
        #expect(throws: Failing.Failure.self) { try Failing().databaseDictionary }
    }

    @Test func databaseEqualsComparesDatabaseValues() {
        let player = Player(id: 1, score: 1000, hasAward: false)
        #expect(player.databaseEquals(player))
        #expect(!player.databaseEquals(Player(id: 1, score: 1001, hasAward: false)))
        #expect(!Failing().databaseEquals(Failing()))
    }

    @Test func databaseChangesFromAnotherRecord() throws {
        let old = Player(id: 1, score: 100, hasAward: false)
        let new = Player(id: 1, score: 200, hasAward: true)
        #expect(try new.databaseChanges(from: old) == ["score": 100.databaseValue, "hasAward": 0.databaseValue])
        #expect(try new.databaseChanges(from: new).isEmpty)
        // Another type: columns it does not encode count as NULL.
        let place = Place(id: 1, title: "Paris", latitude: 0, longitude: 0)
        #expect(try new.databaseChanges(from: place) == ["score": .null, "hasAward": .null])
    }

    @Test func databaseChangesModify() throws {
        // The README's example.
        var player = Player(id: 1, score: 1000, hasAward: false)
        let changes = try player.databaseChanges {
            $0.score = 1000
            $0.hasAward = true
        }
        #expect(player.hasAward)
        #expect(changes["score"] == nil)
        #expect(changes["hasAward"] == false.databaseValue)
    }

    @Test func rowFromARecord() throws {
        let row = try Row(Player(id: 1, score: 10, hasAward: true))
        #expect(row.columnNames == ["id", "score", "hasAward"])
        #expect(row["score"] as Int == 10)
    }

    @Test func containerValuesBindToAnEncryptedDatabase() throws {
        try inEncryptedDatabase { db in
            try db.execute(sql: "CREATE TABLE place (id INTEGER PRIMARY KEY, title TEXT, latitude REAL, longitude REAL)")
            let container = try PersistenceContainer(Place(id: 3, title: "Paris", latitude: 48.85341, longitude: 2.3488))
            let columns = container.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let statement = try db.makeStatement(
                sql: "INSERT INTO place (\(columns)) VALUES (\(databaseQuestionMarks(count: container.count)))")
            try statement.execute(arguments: StatementArguments(container.values))
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM place"))
            #expect(row == ["id": 3, "title": "Paris", "latitude": 48.85341, "longitude": 2.3488])
        }
    }
}
