#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// A Codable record as GRDB's README writes them.
struct Player: Codable, Identifiable, Equatable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int
    var createdAt: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
        static let createdAt = Column(CodingKeys.createdAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

let fixedDate = Date(timeIntervalSince1970: 1_600_000_000)

func createCodablePlayerTable(_ db: Database) throws {
    try db.execute(sql: """
        CREATE TABLE player (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          score INTEGER NOT NULL,
          createdAt DATETIME NOT NULL)
        """)
}

struct Address: Codable, Equatable {
    var street: String
    var city: String
}

/// A record with nested Codable values: stored as JSON.
struct Customer: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var address: Address
    var tags: [String]
    var scores: [String: Int]
    var nickname: String?
}

/// A record with GRDB's coding strategies.
struct Event: Codable, FetchableRecord, PersistableRecord {
    var eventId: UUID
    var startDate: Date
    var payloadData: Data
    var isPublic: Bool

    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSince1970
    static let databaseDateDecodingStrategy = DatabaseDateDecodingStrategy.timeIntervalSince1970
    static let databaseUUIDEncodingStrategy = DatabaseUUIDEncodingStrategy.uppercaseString
    static let databaseDataEncodingStrategy = DatabaseDataEncodingStrategy.text
}

/// A record with other date strategies.
struct Stamp: Codable, FetchableRecord, PersistableRecord {
    var id: Int
    var at: Date
    static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.millisecondsSince1970
    static let databaseDateDecodingStrategy = DatabaseDateDecodingStrategy.millisecondsSince1970
}

struct IsoStamp: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "stamp"
    var id: Int
    var at: Date
    static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.iso8601
    static let databaseDateDecodingStrategy = DatabaseDateDecodingStrategy.iso8601
}

/// A record with custom coding keys and an enum column.
struct Book: Codable, FetchableRecord, PersistableRecord {
    enum Kind: String, Codable, DatabaseValueConvertible { case novel, essay }
    var id: Int
    var title: String
    var kind: Kind
    var pages: Int?
    enum CodingKeys: String, CodingKey {
        case id, title = "book_title", kind, pages
    }
}

let codableRecordPrograms: [Program] = [
    Program("records-codable-crud") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly { try createCodablePlayerTable(db) }
            var player = Player(id: nil, name: "Barbara", score: 1000, createdAt: fixedDate)
            step("insert") { try player.insert(db); return player.id }
            player.score += 10
            step("update") { try player.update(db) }
            step("updateChanges") { try player.updateChanges(db) { $0.score = 0 } }
            step("updateChanges from") {
                var old = player
                old.name = "Barbie"
                return try old.updateChanges(db, from: player)
            }
            step("databaseChanges") {
                var copy = player
                copy.score = 5
                return try copy.databaseChanges(from: player).map { "\($0.key)=\($0.value as Any)" }.sorted()
            }
            step("databaseEquals") { player.databaseEquals(player) }
            step("databaseDictionary") { try player.databaseDictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
            step("find id") { try Player.find(db, id: 1) == player }
            step("fetchOne id") { try Player.fetchOne(db, id: 1)?.name }
            step("fetchAll ids") { try Player.fetchAll(db, ids: [1, 2]).count }
            step("find missing id") { try Player.find(db, id: 2) }
            step("exists id") { try Player.exists(db, id: 1) }
            step("filter id") { try Player.filter(id: 1).fetchCount(db) }
            step("filter ids") { try Player.filter(ids: [1, 3]).fetchCount(db) }
            step("selectID") { try Player.all().selectID().fetchAll(db) }
            step("fetchSet ids") { try Player.all().selectID().fetchSet(db).compactMap { $0 }.sorted() }
            step("insertAndFetch") {
                let p = Player(id: nil, name: "Craig", score: 3, createdAt: fixedDate)
                return try p.insertAndFetch(db)
            }
            step("saveAndFetch") {
                var p = try Player.find(db, id: 1)
                p.score = 77
                return try p.saveAndFetch(db)
            }
            step("updateAndFetch") {
                var p = try Player.find(db, id: 1)
                p.score = 78
                return try p.updateAndFetch(db)
            }
            step("updateChangesAndFetch") {
                var p = try Player.find(db, id: 1)
                return try p.updateChangesAndFetch(db) { $0.score = 79 }
            }
            step("updateChangesAndFetch no change") {
                var p = try Player.find(db, id: 1)
                return try p.updateChangesAndFetch(db) { $0.score = 79 }
            }
            step("upsertAndFetch") {
                var p = Player(id: nil, name: "Craig", score: 33, createdAt: fixedDate)
                return try p.upsertAndFetch(db)
            }
            step("upsertAndFetch onConflict doUpdate") {
                var p = Player(id: nil, name: "Craig", score: 1, createdAt: fixedDate)
                return try p.upsertAndFetch(db, onConflict: ["name"], doUpdate: { excluded in
                    [Player.Columns.score += excluded.score]
                })
            }
            step("upsertAndFetch updating noColumnUnlessSpecified") {
                var p = Player(id: nil, name: "Craig", score: 1000, createdAt: fixedDate.addingTimeInterval(1))
                return try p.upsertAndFetch(db, onConflict: ["name"], updating: .noColumnUnlessSpecified, doUpdate: { _ in
                    [Player.Columns.score.set(to: 999)]
                })
            }
            step("insertAndFetch selection") {
                var p = Player(id: nil, name: "Dan", score: 4, createdAt: fixedDate)
                return try p.insertAndFetch(db, selection: [Player.Columns.id, Player.Columns.score]) { statement in
                    try Row.fetchOne(statement)
                }
            }
            step("insert conflict") { var p = Player(id: nil, name: "Dan", score: 4, createdAt: fixedDate); try p.insert(db) }
            step("all rows") { try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") }
            step("delete") { try player.delete(db) }
            step("deleteOne id") { try Player.deleteOne(db, id: 2) }
            step("deleteAll ids") { try Player.deleteAll(db, ids: [3, 4]) }
            step("fetchCount") { try Player.fetchCount(db) }
        }
    },
    Program("records-codable-json") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly {
                try db.execute(sql: "CREATE TABLE customer (id INTEGER PRIMARY KEY, address TEXT, tags TEXT, scores TEXT, nickname TEXT)")
            }
            let customer = Customer(id: 1, address: Address(street: "1 Main St", city: "Paris"), tags: ["a", "b"], scores: ["x": 1], nickname: nil)
            step("insert") { try customer.insert(db) }
            step("stored") { try Row.fetchAll(db, sql: "SELECT id, address, tags, nickname FROM customer") }
            step("fetch") {
                try Customer.fetchAll(db).map { "\($0.address.city) \($0.tags) \($0.scores) \($0.nickname as Any)" }
            }
            step("bad json") {
                try db.execute(sql: "INSERT INTO customer (id, address, tags, scores) VALUES (2, 'not json', '[]', '{}')")
                return try Customer.fetchOne(db, key: 2)
            }
            step("null json") {
                try db.execute(sql: "INSERT INTO customer (id, address, tags, scores) VALUES (3, NULL, '[]', '{}')")
                return try Customer.fetchOne(db, key: 3)
            }
        }
    },
    Program("records-codable-strategies") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly {
                try db.execute(sql: "CREATE TABLE event (event_id, start_date, payload_data, is_public)")
                try db.execute(sql: "CREATE TABLE stamp (id INTEGER PRIMARY KEY, at)")
                try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, book_title TEXT, kind TEXT, pages INTEGER)")
            }
            let event = Event(eventId: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, startDate: fixedDate,
                              payloadData: Data("hello".utf8), isPublic: true)
            step("event insert") { try event.insert(db) }
            step("event stored") { try Row.fetchAll(db, sql: "SELECT *, typeof(start_date), typeof(payload_data) FROM event") }
            step("event fetch") { try Event.fetchAll(db).map { "\($0.eventId) \($0.startDate.timeIntervalSince1970) \(String(decoding: $0.payloadData, as: UTF8.self)) \($0.isPublic)" } }
            step("stamp insert") { try Stamp(id: 1, at: fixedDate.addingTimeInterval(0.25)).insert(db) }
            step("iso stamp insert") { try IsoStamp(id: 2, at: fixedDate).insert(db) }
            step("stamp stored") { try Row.fetchAll(db, sql: "SELECT *, typeof(at) FROM stamp") }
            step("stamp fetch") { try Stamp.fetchOne(db, key: 1)?.at.timeIntervalSince1970 }
            step("iso fetch") { try IsoStamp.fetchOne(db, key: 2)?.at.timeIntervalSince1970 }
            step("iso fetch wrong format") { try IsoStamp.fetchOne(db, key: 1)?.at.timeIntervalSince1970 }
            step("book insert") { try Book(id: 1, title: "Dune", kind: .novel, pages: nil).insert(db) }
            step("book stored") { try Row.fetchAll(db, sql: "SELECT * FROM book") }
            step("book fetch") { try Book.fetchAll(db).map { "\($0.title) \($0.kind) \($0.pages as Any)" } }
            step("book bad enum") {
                try db.execute(sql: "INSERT INTO book VALUES (2, 'X', 'poem', 1)")
                return try Book.fetchOne(db, key: 2).map { "\($0.kind)" }
            }
            step("book missing column") { try Book.fetchAll(db, sql: "SELECT id, kind FROM book").count }
            step("book null column") { try Book.fetchAll(db, sql: "SELECT id, NULL AS book_title, kind, pages FROM book").count }
            step("databaseSelection") { try Row.fetchAll(db, Book.all().limit(1)) }
        }
    },
    Program("records-record-class") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly { try createPlayerTable(db) }
            let player = ClassPlayer(name: "Arthur", score: 1)
            step("hasDatabaseChanges new") { player.hasDatabaseChanges }
            step("insert") { try player.insert(db); return player.id }
            step("hasDatabaseChanges after insert") { player.hasDatabaseChanges }
            player.score = 2
            step("databaseChanges") { try player.databaseChanges.map { "\($0.key)=\($0.value as Any)" }.sorted() }
            step("updateChanges") { try player.updateChanges(db) }
            step("updateChanges none") { try player.updateChanges(db) }
            step("save") { try player.save(db) }
            step("fetch") { try ClassPlayer.fetchOne(db, key: player.id).map { "\($0.name) \($0.score) changes=\($0.hasDatabaseChanges)" } }
            step("delete") { try player.delete(db) }
            step("hasDatabaseChanges after delete") { player.hasDatabaseChanges }
            step("insert again") { try player.insert(db) }
        }
    },
]

/// A subclass of GRDB's Record class.
final class ClassPlayer: Record {
    var id: Int64?
    var name: String
    var score: Int

    init(name: String, score: Int) {
        self.name = name
        self.score = score
        super.init()
    }

    required init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        score = row["score"]
        try super.init(row: row)
    }

    override class var databaseTableName: String { "player" }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["score"] = score
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}
