#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Requests that merge, reverse and refine associations, common table
// expressions of several tables, and a transaction observer that cancels the
// commit of an implicit transaction: the steps of cases GRDB's own test suite
// checks, with their SQL, rows and errors.

struct SuiteTeam: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "suiteTeam"
    static let players = hasMany(SuitePlayer.self)
    var id: Int64
    var name: String
}

struct SuitePlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "suitePlayer"
    static let team = belongsTo(SuiteTeam.self)
    var id: Int64
    var teamId: Int64
    var name: String
}

struct SuiteAward: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "suiteAward"
    static let player = belongsTo(SuitePlayer.self)
    var id: Int64
    var playerId: Int64
    var name: String
}

private func makeSuiteDatabase() throws -> DatabaseQueue {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
        try quietly {
            try db.execute(sql: """
                CREATE TABLE suiteTeam (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE suitePlayer (id INTEGER PRIMARY KEY, teamId INTEGER NOT NULL REFERENCES suiteTeam(id), name TEXT NOT NULL);
                CREATE TABLE suiteAward (id INTEGER PRIMARY KEY, playerId INTEGER NOT NULL REFERENCES suitePlayer(id), name TEXT NOT NULL);
                INSERT INTO suiteTeam VALUES (1, 'Reds'), (2, 'Blues');
                INSERT INTO suitePlayer VALUES (1, 1, 'Arthur'), (2, 2, 'Barbara'), (3, 1, 'Craig');
                INSERT INTO suiteAward VALUES (1, 1, 'MVP'), (2, 3, 'Rookie');
                """)
        }
    }
    return dbQueue
}

/// A record whose `Columns` is a struct of static columns, filtered with closures.
private struct SuiteReader: TableRecord {
    static let databaseTableName = "suiteReader"
    struct Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let age = Column("age")
    }
}

/// The SQL of a request, then its rows.
private func sqlAndRows<T>(_ db: Database, _ request: QueryInterfaceRequest<T>) throws -> [String] {
    try [request.makePreparedRequest(db, forSingleResult: false).statement.sql] + rows(db, request)
}

private func rows<T>(_ db: Database, _ request: QueryInterfaceRequest<T>) throws -> [String] {
    try Row.fetchAll(db, request).map(\.debugDescription)
}

private final class CancellingObserver: TransactionObserver {
    struct Refusal: Error {}
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseWillCommit() throws { throw Refusal() }
    func databaseDidCommit(_ db: Database) { out("observer: did commit") }
    func databaseDidRollback(_ db: Database) { out("observer: did rollback") }
}

let suiteCasePrograms: [Program] = [
    Program("suite-logical-operators") {
        // Closures of logical operators, some near the type checker's limit:
        // each must compile against both libraries and give the same SQL.
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE suiteReader (id INTEGER PRIMARY KEY, name TEXT, age INTEGER);
                INSERT INTO suiteReader VALUES (1, 'Arthur', 42), (2, NULL, 17), (3, 'Craig', NULL);
                """)
        }
        try dbQueue.read { db in
            let request = SuiteReader.all()
            step("not") { try sqlAndRows(db, request.filter { !$0.age }) }
            step("not not") { try sqlAndRows(db, request.filter { !(!$0.age) }) }
            step("and true") { try sqlAndRows(db, request.filter { $0.age && true }) }
            step("true and") { try sqlAndRows(db, request.filter { true && $0.age }) }
            step("or false") { try sqlAndRows(db, request.filter { $0.age || false }) }
            step("false or") { try sqlAndRows(db, request.filter { false || $0.age }) }
            step("two nil comparisons") { try sqlAndRows(db, request.filter { $0.age != nil || $0.name == nil }) }
            step("three nil comparisons") {
                try sqlAndRows(db, request.filter { $0.age != nil || $0.name != nil && $0.id != nil })
            }
            step("three nil comparisons, grouped") {
                try sqlAndRows(db, request.filter { ($0.age != nil || $0.name != nil) && $0.id != nil })
            }
            step("negated comparisons") { try sqlAndRows(db, request.filter { !($0.age > 18) && !($0.name > "foo") }) }
            step("joined") { try sqlAndRows(db, request.filter { [$0.id == 1].joined(operator: .and) }) }
            step("joined or false") { try sqlAndRows(db, request.filter { [$0.id == 1].joined(operator: .and) || false }) }
        }
    },
    Program("suite-association-merging") {
        let dbQueue = try makeSuiteDatabase()
        try dbQueue.read { db in
            let team = SuitePlayer.team
            step("included selection kept by later joinings") {
                try rows(db, SuitePlayer
                    .including(required: team.select(Column("name"), Column("id")))
                    .joining(required: team.filter(Column("name") == "Reds"))
                    .joining(optional: team)
                    .order(Column("name")))
            }
            step("joined selection replaced by a later including") {
                try rows(db, SuitePlayer
                    .joining(required: team.select(Column("id")))
                    .including(required: team)
                    .order(Column("id")))
            }
            step("later included selection wins") {
                try rows(db, SuitePlayer
                    .including(required: team.select(Column("id")))
                    .including(required: team.select(Column("name")))
                    .order(Column("id")))
            }
            step("empty root selection with an included table") {
                try rows(db, SuitePlayer.select([]).including(required: team).order(Column("id")))
            }
        }
    },
    Program("suite-association-order-bubble-up") {
        let dbQueue = try makeSuiteDatabase()
        try dbQueue.read { db in
            let player = SuiteAward.player
            let team = SuitePlayer.team
            step("reversed child reverses its own joined table") {
                try rows(db, SuiteAward.including(required: player
                    .order(Column("name")).reversed()
                    .including(required: team.order(Column("id")))))
            }
            step("reversed child without order of its own") {
                try rows(db, SuiteAward.including(required: player
                    .reversed()
                    .including(required: team.order(Column("id")))))
            }
            step("reversed root and reversed child") {
                try rows(db, SuiteAward
                    .order(Column("id"))
                    .including(required: player
                        .order(Column("name")).reversed()
                        .including(required: team.order(Column("id"))))
                    .reversed())
            }
        }
    },
    Program("suite-cte-merging") {
        let dbQueue = try makeSuiteDatabase()
        try dbQueue.read { db in
            let cte = CommonTableExpression(named: "cte", request: SuitePlayer.all())
            step("last condition of one key wins") {
                try rows(db, SuitePlayer
                    .with(cte)
                    .including(required: SuitePlayer.association(to: cte, on: { left, right in left["id"] > right["id"] }))
                    .including(required: SuitePlayer.association(to: cte, on: { left, right in left["id"] + right["id"] == 4 })))
            }
            let one = CommonTableExpression(named: "cte", sql: "SELECT 1 AS id")
            let two = CommonTableExpression(named: "cte", sql: "SELECT 2 AS id")
            step("joined table's definition replaces the root's") {
                try rows(db, SuitePlayer
                    .with(one)
                    .including(required: SuitePlayer.association(to: two, on: { left, right in left["id"] == right["id"] })))
            }
            step("a deeper definition replaces a shallower one") {
                try rows(db, SuiteAward
                    .including(required: SuiteAward.player
                        .with(one)
                        .including(required: SuitePlayer.association(to: two, on: { left, right in left["id"] == right["id"] }))))
            }
        }
    },
    Program("suite-observer-cancels-implicit-commit") {
        let dbQueue = try makeQueue()
        for forNextTransaction in [false, true] {
            try dbQueue.writeWithoutTransaction { db in
                let observer = CancellingObserver()
                db.add(transactionObserver: observer, extent: forNextTransaction ? .nextTransaction : .observerLifetime)
                step("create table") { try db.execute(sql: "CREATE TABLE t(a)") }
                step("table exists") { try db.tableExists("t") }
                if !forNextTransaction { db.remove(transactionObserver: observer) }
            }
        }
    },
    Program("suite-prefetch-shared-pivots") {
        let dbQueue = try makeSuiteDatabase()
        try dbQueue.read { db in
            func teammates(_ filter: SQLExpression, key: String?, pivotKey: String? = nil) -> HasManyThroughAssociation<SuitePlayer, SuitePlayer> {
                var pivot = SuitePlayer.team.filter(filter)
                if let pivotKey { pivot = pivot.forKey(pivotKey) }
                let association = SuitePlayer.hasMany(SuitePlayer.self, through: pivot, using: SuiteTeam.players)
                return (key.map { association.forKey($0) } ?? association).order(Column("id"))
            }
            let reds = Column("name") == "Reds"
            let notReds = Column("name") != "Reds"
            step("one key, shared pivot") {
                try rows(db, SuitePlayer
                    .including(all: teammates(reds, key: nil))
                    .including(all: teammates(notReds, key: nil))
                    .order(Column("id")))
            }
            step("two keys, shared pivot") {
                try rows(db, SuitePlayer
                    .including(all: teammates(reds, key: "red"))
                    .including(all: teammates(notReds, key: "notRed"))
                    .order(Column("id")))
            }
            step("one key, two pivots") {
                try rows(db, SuitePlayer
                    .including(all: teammates(reds, key: nil, pivotKey: "redTeam"))
                    .including(all: teammates(notReds, key: nil, pivotKey: "otherTeam"))
                    .order(Column("id")))
            }
            step("two keys, two pivots") {
                try rows(db, SuitePlayer
                    .including(all: teammates(reds, key: "red", pivotKey: "redTeam"))
                    .including(all: teammates(notReds, key: "notRed", pivotKey: "otherTeam"))
                    .order(Column("id")))
            }
        }
    },
]
