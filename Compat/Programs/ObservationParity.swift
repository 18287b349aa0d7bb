#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// Values and events received by observations, in the order they came, from any thread.
final class ReceivedLog: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }

    var count: Int { lock.withLock { entries.count } }

    func contains(_ entry: String) -> Bool { lock.withLock { entries.contains(entry) } }

    /// Prints the entries received so far (sorted, when they come from several observations
    /// in any order), and forgets them.
    func flush(_ label: String, sorted: Bool = false) {
        let entries = lock.withLock { defer { self.entries = [] }; return self.entries }
        out("\(label): \(sorted ? entries.sorted() : entries)")
    }
}

/// Runs the main run loop until `condition` holds (10 seconds at most), so that values
/// scheduled on the main queue are delivered meanwhile.
func runMainLoop(until label: String, _ condition: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: 10)
    while !condition() && Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
    }
    if !condition() { out("TIMEOUT waiting for \(label)") }
}

/// Runs the main run loop for a short while: values that should not come have had time to.
func settle() {
    let pause = Date(timeIntervalSinceNow: 0.2)
    while Date() < pause {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
    }
}

/// A database queue or pool on a new file, not traced (observations fetch from several threads).
func makeUntracedWriter(pool: Bool) throws -> any DatabaseWriter {
    let path = try temporaryDatabasePath()
    let config = harnessConfiguration()
    return pool ? try DatabasePool(path: path, configuration: config) : try DatabaseQueue(path: path, configuration: config)
}

struct ObservedPlayer: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "player"
    static let team = belongsTo(ObservedTeam.self)
    static let mates = hasMany(ObservedPlayer.self, through: team, using: ObservedTeam.players, key: "mates")
    var id: Int64
    var name: String
    var score: Int
    var teamId: Int64?
}

struct ObservedTeam: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "team"
    static let players = hasMany(ObservedPlayer.self)
    var id: Int64
    var name: String
}

/// The tables of the observation parity programs, with two teams and four players.
func makeObservedSchema(_ writer: some DatabaseWriter) throws {
    try writer.write { db in
        try db.execute(sql: """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 0,
                                 teamId INTEGER REFERENCES team(id));
            CREATE TABLE audit (id INTEGER PRIMARY KEY, note TEXT NOT NULL);
            CREATE TABLE other (id INTEGER PRIMARY KEY, value INTEGER);
            INSERT INTO team VALUES (1, 'Red'), (2, 'Blue');
            INSERT INTO player VALUES (1, 'Arthur', 10, 1), (2, 'Barbara', 20, 1), (3, 'Craig', 30, 2), (4, 'David', 40, NULL);
            """)
    }
}

/// A transaction observer of every table, that logs what it hears.
final class LoggingObserver: TransactionObserver, @unchecked Sendable {  // used on the writer only
    let name: String
    let tables: Set<String>?
    let log: ReceivedLog

    init(_ name: String, tables: Set<String>?, log: ReceivedLog) {
        self.name = name
        self.tables = tables
        self.log = log
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        tables.map { $0.contains(eventKind.tableName) } ?? true
    }

    func databaseDidChange() { log.append("\(name) didChange()") }

    func databaseDidChange(with event: DatabaseEvent) {
        log.append("\(name) didChange \(event.kind) \(event.tableName) \(event.rowID)")
    }

    func databaseWillCommit() throws { log.append("\(name) willCommit") }

    func databaseDidCommit(_ db: Database) { log.append("\(name) didCommit") }

    func databaseDidRollback(_ db: Database) { log.append("\(name) didRollback") }
}

let observationParityPrograms: [Program] = [
    // A value handler that writes to the database it observes, with each scheduler.
    Program("observation-handler-writes") {
        for pool in [false, true] {
            section(pool ? "pool" : "queue")
            let writer = try makeUntracedWriter(pool: pool)
            try makeObservedSchema(writer)
            let received = ReceivedLog()
            // Deduplicated: a pool may notify its initial value twice (see observation-pool-fetches).
            let observation = ValueObservation.tracking { db in try ObservedPlayer.fetchCount(db) }.removeDuplicates()
            let audit: @Sendable (String, Int) -> Void = { label, count in
                do {
                    try writer.write { db in
                        try db.execute(sql: "INSERT INTO audit (note) VALUES (?)", arguments: ["\(label) \(count)"])
                    }
                    received.append("\(label) \(count) audited")
                } catch {
                    received.append("\(label) \(count) audit failed: \(describe(error))")
                }
            }
            for (label, scheduler) in [("immediate", nil), ("queue", DispatchQueue(label: "handler"))] {
                let count = label == "immediate" ? 4 : 5
                let cancellable: AnyDatabaseCancellable
                if let scheduler {
                    cancellable = observation.start(
                        in: writer, scheduling: .async(onQueue: scheduler),
                        onError: { received.append("\(label) error \(describe($0))") },
                        onChange: { audit(label, $0) })
                } else {
                    cancellable = MainActor.assumeIsolated {
                        observation.start(
                            in: writer, scheduling: .immediate,
                            onError: { received.append("\(label) error \(describe($0))") },
                            onChange: { audit(label, $0) })
                    }
                }
                out("\(label) started")
                runMainLoop(until: "the initial value") { received.count >= 1 }
                settle()
                received.flush("received")
                step("insert a player") {
                    try writer.write { db in
                        try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [label])
                    }
                }
                runMainLoop(until: "the next value") { received.contains("\(label) \(count + 1) audited") }
                settle()
                received.flush("received")
                cancellable.cancel()
            }
            step("audit") { try writer.read { db in try String.fetchAll(db, sql: "SELECT note FROM audit ORDER BY id") } }
        }
    },
    // The regions of requests by primary key, and which changes they observe.
    Program("observation-key-regions") {
        let dbQueue = try makeQueue(traced: false)
        try makeObservedSchema(dbQueue)
        let requests: [(String, QueryInterfaceRequest<ObservedPlayer>)] = [
            ("filter(ids:)", ObservedPlayer.filter(ids: [1, 2, 3])),
            ("filter(id:)", ObservedPlayer.filter(id: 1)),
            ("filter(key:)", ObservedPlayer.filter(key: 1)),
            ("filter(keys:)", ObservedPlayer.filter(keys: [1, 2])),
            ("filter(ids: [])", ObservedPlayer.filter(ids: [])),
            ("id == 1", ObservedPlayer.filter(Column("id") == 1)),
            ("rowid == 1", ObservedPlayer.filter(Column.rowID == 1)),
            ("1 == id", ObservedPlayer.filter(1 == Column("id"))),
            ("ids contains", ObservedPlayer.filter([1, 2].contains(Column("id")))),
            ("id == 1 or id == 2", ObservedPlayer.filter(Column("id") == 1 || Column("id") == 2)),
            ("id == 1 and score", ObservedPlayer.filter(Column("id") == 1 && Column("score") > 0)),
            ("id == 1 then id == 2", ObservedPlayer.filter(Column("id") == 1).filter(Column("id") == 2)),
            ("ids then select", ObservedPlayer.filter(ids: [1, 2]).select(Column("name"))),
            ("ids then order and limit", ObservedPlayer.filter(ids: [1, 2]).order(Column("name")).limit(1)),
            ("ids with join", ObservedPlayer.filter(ids: [1, 2]).including(optional: ObservedPlayer.team)),
            ("ids with prefetch", ObservedPlayer.filter(ids: [1, 2]).including(all: ObservedPlayer.mates)),
            ("id == nil", ObservedPlayer.filter(Column("id") == nil)),
            ("id > 1", ObservedPlayer.filter(Column("id") > 1)),
            ("grouped", ObservedPlayer.filter(ids: [1, 2]).group(Column("teamId"))),
            ("distinct", ObservedPlayer.filter(ids: [1, 2]).distinct()),
        ]
        for (label, request) in requests {
            step("region \(label)") { try dbQueue.read { db in try request.databaseRegion(db).description } }
            step("count region \(label)") {
                try dbQueue.read { db in try request.select(count(Column("id"))).asRequest(of: Int.self).databaseRegion(db).description }
            }
        }
        step("region of filter(ids:) in a team request") {
            try dbQueue.read { db in
                try ObservedTeam.filter(ids: [1]).including(all: ObservedTeam.players.filter(ids: [1, 2])).databaseRegion(db).description
            }
        }
        let fetches = ReceivedLog()
        let observation = ValueObservation
            .tracking { db in try ObservedPlayer.filter(ids: [1, 2]).fetchAll(db).map(\.score) }
            .handleEvents(willFetch: { fetches.append("fetch") })
        for pool in [false, true] {
            section(pool ? "pool" : "queue")
            let writer = try makeUntracedWriter(pool: pool)
            try makeObservedSchema(writer)
            let values = ReceivedLog()
            let cancellable = observation.start(
                in: writer, scheduling: .async(onQueue: .main),
                onError: { values.append("error \(describe($0))") },
                onChange: { values.append("\($0)") })
            runMainLoop(until: "the initial value") { values.count >= 1 }
            settle()
            values.flush(pool ? "initial (pool)" : "initial")
            fetches.flush(pool ? "initial fetches (pool)" : "fetches")
            for (label, sql) in [
                ("update row 4", "UPDATE player SET score = 41 WHERE id = 4"),
                ("insert row 6", "INSERT INTO player (id, name) VALUES (6, 'Fiona')"),
                ("delete row 3", "DELETE FROM player WHERE id = 3"),
                ("update row 2", "UPDATE player SET score = 21 WHERE id = 2"),
                ("update team", "UPDATE team SET name = 'Green'"),
                ("update every row", "UPDATE player SET score = score + 1"),
                ("delete all rows", "DELETE FROM player"),
            ] {
                step(label) { try writer.write { db in try db.execute(sql: sql) } }
                settle()
                values.flush("values")
                fetches.flush("fetches")
            }
            cancellable.cancel()
        }
    },
    // The regions of requests with prefetched associations, and their observation.
    Program("observation-prefetch-regions") {
        let dbQueue = try makeQueue(traced: false)
        try makeObservedSchema(dbQueue)
        let requests: [(String, QueryInterfaceRequest<ObservedTeam>)] = [
            ("all players", ObservedTeam.including(all: ObservedTeam.players)),
            ("all player names", ObservedTeam.including(all: ObservedTeam.players.select(Column("name")))),
            ("team 1 with players", ObservedTeam.filter(id: 1).including(all: ObservedTeam.players)),
            ("filtered players", ObservedTeam.including(all: ObservedTeam.players.filter(Column("score") > 15))),
            ("nested", ObservedTeam.including(all: ObservedTeam.players.including(optional: ObservedPlayer.team))),
            ("selected team", ObservedTeam.select(Column("name")).including(all: ObservedTeam.players)),
        ]
        for (label, request) in requests {
            step("region \(label)") { try dbQueue.read { db in try request.databaseRegion(db).description } }
        }
        let observation = ValueObservation.tracking { db in
            try ObservedTeam.including(all: ObservedTeam.players.orderByPrimaryKey()).orderByPrimaryKey()
                .asRequest(of: Row.self).fetchAll(db)
                .map { row in "\(row["name"] as String): \((row.prefetchedRows["players"] ?? []).map { $0["name"] as String })" }
        }
        for pool in [false, true] {
            section(pool ? "pool" : "queue")
            let writer = try makeUntracedWriter(pool: pool)
            try makeObservedSchema(writer)
            let values = ReceivedLog()
            let cancellable = observation.start(
                in: writer, scheduling: .async(onQueue: .main),
                onError: { values.append("error \(describe($0))") },
                onChange: { values.append("\($0)") })
            runMainLoop(until: "the initial value") { values.count >= 1 }
            settle()
            values.flush(pool ? "initial (pool)" : "initial")
            for (label, sql) in [
                ("insert a player", "INSERT INTO player (id, name, teamId) VALUES (5, 'Eve', 2)"),
                ("update a score", "UPDATE player SET score = 0 WHERE id = 1"),
                ("update audit", "INSERT INTO audit (note) VALUES ('x')"),
                ("rename a team", "UPDATE team SET name = 'Green' WHERE id = 2"),
            ] {
                step(label) { try writer.write { db in try db.execute(sql: sql) } }
                settle()
                values.flush("values")
            }
            cancellable.cancel()
        }
    },
    // Changes the connection cannot see row by row, told by `notifyChanges(in:)`.
    Program("observation-notify-changes") {
        let dbQueue = try makeQueue(traced: false)
        try makeObservedSchema(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY)") }
        let log = ReceivedLog()
        let everything = LoggingObserver("all", tables: nil, log: log)
        let players = LoggingObserver("player", tables: ["player"], log: log)
        let scratch = LoggingObserver("scratch", tables: ["scratch"], log: log)
        let master = LoggingObserver("temp_master", tables: ["sqlite_temp_master"], log: log)
        dbQueue.add(transactionObserver: everything)
        dbQueue.add(transactionObserver: players)
        dbQueue.add(transactionObserver: scratch)
        dbQueue.add(transactionObserver: master)
        let regions: [(String, any DatabaseRegionConvertible)] = [
            ("player", Table("player")),
            ("player column", Table("player").select(Column("name"))),
            ("player row", ObservedPlayer.filter(id: 1)),
            ("team", Table("team")),
            ("scratch", Table("scratch")),
            ("sqlite_temp_master", Table("sqlite_temp_master")),
            ("sqlite_master", Table("sqlite_master")),
            ("missing", Table("missing")),
            ("full database", DatabaseRegion.fullDatabase),
            ("empty region", DatabaseRegion()),
        ]
        for (label, region) in regions {
            step("write \(label)") { try dbQueue.write { db in try db.notifyChanges(in: region) } }
            log.flush("heard")
        }
        step("outside of a transaction") { try dbQueue.writeWithoutTransaction { db in try db.notifyChanges(in: Table("player")) } }
        log.flush("heard")
        step("twice in a transaction") {
            try dbQueue.write { db in
                try db.notifyChanges(in: Table("player"))
                try db.notifyChanges(in: Table("team"))
            }
        }
        log.flush("heard")
        step("with a real change") {
            try dbQueue.write { db in
                try db.execute(sql: "UPDATE player SET score = 0 WHERE id = 1")
                try db.notifyChanges(in: Table("player"))
            }
        }
        log.flush("heard")
        step("in a read") { try dbQueue.read { db in try db.notifyChanges(in: Table("player")) } }
        log.flush("heard")
        step("in a rolled back transaction") {
            try dbQueue.inTransaction { db in
                try db.notifyChanges(in: Table("player"))
                return .rollback
            }
        }
        log.flush("heard")
        step("in a savepoint rolled back") {
            try dbQueue.write { db in
                try db.inSavepoint {
                    try db.notifyChanges(in: Table("player"))
                    return .rollback
                }
            }
        }
        log.flush("heard")
        let values = ReceivedLog()
        let cancellable = ValueObservation
            .tracking { db in try ObservedPlayer.fetchCount(db) }
            .start(in: dbQueue, scheduling: .async(onQueue: .main),
                   onError: { values.append("error \(describe($0))") },
                   onChange: { values.append("\($0)") })
        runMainLoop(until: "the initial value") { values.count >= 1 }
        values.flush("value")
        for (label, region) in regions {
            step("notify \(label)") { try dbQueue.write { db in try db.notifyChanges(in: region) } }
            settle()
            values.flush("values")
        }
        log.flush("observers heard meanwhile (not compared)")
        cancellable.cancel()
    },
    // Where a pool fetches the values of each kind of observation.
    Program("observation-pool-fetches") {
        let dbPool = try makeUntracedWriter(pool: true)
        try makeObservedSchema(dbPool)
        let fetches = ReceivedLog()
        let connection: @Sendable (Database) -> String = { db in
            db.description.contains("writer") ? "writer" : (db.description.contains("reader") ? "reader" : db.description)
        }
        let observations: [(String, ValueObservation<ValueReducers.Fetch<Int>>)] = [
            ("tracking", ValueObservation.tracking { db in
                fetches.append("tracking fetch on \(connection(db))")
                return try ObservedPlayer.fetchCount(db)
            }),
            ("constant region", ValueObservation.tracking(region: Table("player")) { db in
                fetches.append("constant fetch on \(connection(db))")
                return try ObservedPlayer.fetchCount(db)
            }),
            ("constant selection", ValueObservation.trackingConstantRegion { db in
                fetches.append("selection fetch on \(connection(db))")
                return try ObservedPlayer.fetchCount(db)
            }),
        ]
        for (label, observation) in observations {
            section(label)
            let values = ReceivedLog()
            let cancellable = observation.start(
                in: dbPool, scheduling: .async(onQueue: .main),
                onError: { values.append("error \(describe($0))") },
                onChange: { values.append("\($0)") })
            runMainLoop(until: "the initial value") { values.count >= 1 }
            settle()
            values.flush("initial (pool)")
            fetches.flush("initial fetches (pool)")
            for index in 0..<2 {
                step("insert") {
                    try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["p\(index)"]) }
                }
                settle()
                values.flush("values")
                fetches.flush("fetches")
            }
            cancellable.cancel()
        }
    },
    // A pool's initial value does not wait for a long write.
    Program("observation-pool-initial-during-write") {
        let dbPool = try makeUntracedWriter(pool: true)
        try makeObservedSchema(dbPool)
        let values = ReceivedLog()
        let writeStarted = DispatchSemaphore(value: 0)
        let endWrite = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        dbPool.asyncWrite({ db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (10, 'Writer')")
            writeStarted.signal()
            endWrite.wait()
        }, completion: { _, _ in writeDone.signal() })
        writeStarted.wait()
        let cancellable = ValueObservation
            .tracking { db in try ObservedPlayer.fetchCount(db) }
            .start(in: dbPool, scheduling: .async(onQueue: .main),
                   onError: { values.append("error \(describe($0))") },
                   onChange: { values.append("\($0)") })
        runMainLoop(until: "the initial value") { values.count >= 1 }
        values.flush("values during the write")
        endWrite.signal()
        writeDone.wait()
        runMainLoop(until: "the value after the write") { values.contains("5") }
        settle()
        values.flush("values after the write")
        cancellable.cancel()
    },
    // Writes to an attached database, read by the observed request.
    Program("observation-attached") {
        let writer = try makeUntracedWriter(pool: false)
        try makeObservedSchema(writer)
        let otherPath = try temporaryDatabasePath()
        try writer.writeWithoutTransaction { db in
            #if GRDBCIPHER
            try db.execute(sql: "ATTACH DATABASE ? AS aux KEY 'compat harness passphrase'", arguments: [otherPath])
            #else
            try db.execute(sql: "ATTACH DATABASE ? AS aux", arguments: [otherPath])
            #endif
            try db.execute(sql: "CREATE TABLE aux.note (id INTEGER PRIMARY KEY, text TEXT)")
        }
        let values = ReceivedLog()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM aux.note")! }
            .start(in: writer, scheduling: .async(onQueue: .main),
                   onError: { values.append("error \(describe($0))") },
                   onChange: { values.append("\($0)") })
        runMainLoop(until: "the initial value") { values.count >= 1 }
        values.flush("initial")
        step("insert into the attached table") {
            try writer.write { db in try db.execute(sql: "INSERT INTO aux.note (text) VALUES ('a')") }
        }
        settle()
        values.flush("values")
        step("insert into a main table") {
            try writer.write { db in try db.execute(sql: "INSERT INTO other (value) VALUES (1)") }
        }
        settle()
        values.flush("values")
        cancellable.cancel()
    },
    // Regions of schema reads (pragmas, sqlite_master, sqlite_temp_master), and observations of them.
    Program("observation-schema-reads") {
        let dbQueue = try makeQueue(traced: false)
        try makeObservedSchema(dbQueue)
        for sql in [
            "PRAGMA table_info(player)", "PRAGMA table_xinfo('player')", "PRAGMA index_list(player)",
            "PRAGMA foreign_key_list(player)", "PRAGMA user_version", "SELECT * FROM sqlite_master",
            "SELECT name FROM sqlite_master WHERE type = 'table'", "SELECT * FROM sqlite_temp_master",
            "SELECT * FROM sqlite_schema", "SELECT * FROM temp.sqlite_master", "SELECT * FROM pragma_table_info('player')",
        ] {
            // Compiled once before: the first use of an eponymous virtual table on a connection
            // (pragma_table_info) reads sqlite_master while it compiles, later ones do not.
            step("region \(sql)") {
                try dbQueue.read { db in
                    _ = try db.makeStatement(sql: sql)
                    return try db.makeStatement(sql: sql).databaseRegion.description
                }
            }
        }
        for pool in [false, true] {
            section(pool ? "pool" : "queue")
            let writer = try makeUntracedWriter(pool: pool)
            try makeObservedSchema(writer)
            let values = ReceivedLog()
            let tables = ValueObservation.tracking { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            }
            let columns = ValueObservation.tracking { db in
                try Row.fetchAll(db, sql: "PRAGMA table_info(player)").map { $0["name"] as String }
            }
            let temporary = ValueObservation.tracking { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_temp_master ORDER BY name")
            }
            let cancellables = [
                tables.start(in: writer, scheduling: .async(onQueue: .main),
                             onError: { values.append("tables error \(describe($0))") },
                             onChange: { values.append("tables \($0)") }),
                columns.start(in: writer, scheduling: .async(onQueue: .main),
                              onError: { values.append("columns error \(describe($0))") },
                              onChange: { values.append("columns \($0)") }),
                temporary.start(in: writer, scheduling: .async(onQueue: .main),
                                onError: { values.append("temporary error \(describe($0))") },
                                onChange: { values.append("temporary \($0)") }),
            ]
            runMainLoop(until: "the initial values") { values.count >= 3 }
            settle()
            values.flush(pool ? "initial (pool, sorted)" : "initial (sorted)", sorted: true)
            for (label, sql) in [
                ("create table", "CREATE TABLE extra (id INTEGER PRIMARY KEY)"),
                ("add column", "ALTER TABLE player ADD COLUMN rank INTEGER"),
                ("insert row", "INSERT INTO player (id, name) VALUES (9, 'Ivy')"),
                ("create temp table", "CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY)"),
                ("drop table", "DROP TABLE extra"),
            ] {
                step(label) { try writer.writeWithoutTransaction { db in try db.execute(sql: sql) } }
                settle()
                values.flush("values (sorted)", sorted: true)
            }
            for cancellable in cancellables { cancellable.cancel() }
        }
    },
]
