// A tour of GRDBCipher on an encrypted file: create, write, read, look at the
// bytes on disk, fail with a wrong passphrase, change the passphrase, reopen,
// back up, export with other settings, detect an altered page; then a server's
// boot on an encrypted pool: migrate, write records, query them, observe them.
// Exits with status 1 as soon as a step does not behave.
import Foundation
import GRDBCipher

func step(_ title: String, _ body: () throws -> Void) {
    do {
        try body()
        print("ok    \(title)")
    } catch {
        print("FAIL  \(title): \(error)")
        exit(1)
    }
}

func check(_ condition: Bool, _ message: String) throws {
    if !condition { throw DemoFailure(message: message) }
}

struct DemoFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grdbcipher-demo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let path = folder.appendingPathComponent("demo.sqlite").path

print("SQLCipher \(SQLCipherLibrary.cipherVersion ?? "missing"), SQLite \(SQLCipherLibrary.sqliteVersion)")
print("database: \(path)")

var config = Configuration()
config.passphrase = "first passphrase"

step("create an encrypted database, a table, and rows") {
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try dbQueue.write { db in
        try db.execute(sql: """
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
            INSERT INTO player (name, score) VALUES (?, ?), (?, ?);
            """, arguments: ["Arthur", 100, "Barbara", 1000])
        let name = "Craig"
        try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(500))")
    }
    try dbQueue.close()
}

step("fetch rows") {
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    let rows = try dbQueue.read { db in
        try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY score DESC")
    }
    for row in rows {
        let name: String = row["name"]
        let score: Int = row["score"]
        print("      \(name): \(score)")
    }
    try check(rows.count == 3, "expected 3 rows, got \(rows.count)")
}

step("the file does not start with the SQLite header") {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let header = try handle.read(upToCount: 16) ?? Data()
    print("      first 16 bytes: \(header.map { String(format: "%02x", $0) }.joined(separator: " "))")
    try check(header != Data("SQLite format 3\0".utf8), "the file is not encrypted")
}

step("a wrong passphrase fails with a clear error") {
    var wrong = Configuration()
    wrong.passphrase = "wrong passphrase"
    do {
        _ = try DatabaseQueue(path: path, configuration: wrong)
        throw DemoFailure(message: "the wrong passphrase opened the database")
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
        print("      \(error)")
    }
}

step("change the passphrase") {
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try dbQueue.changePassphrase("second passphrase")
    try dbQueue.close()
}

step("the old passphrase no longer opens it") {
    do {
        _ = try DatabaseQueue(path: path, configuration: config)
        throw DemoFailure(message: "the old passphrase still opens the database")
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {}
}

var newConfig = Configuration()
newConfig.passphrase = "second passphrase"

step("reopen with the new passphrase") {
    let dbQueue = try DatabaseQueue(path: path, configuration: newConfig)
    let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
    try check(count == 3, "expected 3 players, got \(String(describing: count))")
}

let backupPath = folder.appendingPathComponent("backup.sqlite").path

step("back up into a database pool, with progress") {
    let source = try DatabaseQueue(path: path, configuration: newConfig)
    let backup = try DatabasePool(path: backupPath, configuration: newConfig)
    try source.backup(to: backup, pagesPerStep: 1) { progress in
        print("      \(progress.completedPageCount)/\(progress.totalPageCount) pages\(progress.isCompleted ? ", done" : "")")
    }
    let count = try backup.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
    try check(count == 3, "expected 3 players in the backup, got \(String(describing: count))")
    try backup.close()
}

step("export with SQLCipher 3 settings and a new passphrase") {
    let exportPath = folder.appendingPathComponent("v3.sqlite").path
    let source = try DatabaseQueue(path: path, configuration: newConfig)
    try source.export(to: exportPath, encryption: .encrypted(key: .passphrase("legacy"), settings: .sqlcipher3))
    var legacy = Configuration()
    legacy.passphrase = "legacy"
    legacy.cipherSettings = .sqlcipher3
    let settings = try DatabaseQueue(path: exportPath, configuration: legacy).read { db in try db.cipherSettings }
    print("      \(settings.map { "\($0)" } ?? "not encrypted")")
    try check(settings?.pageSize == 1024, "expected 1024-byte pages")
}

step("an altered page fails authentication, and the integrity check names it") {
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[4096 + 100] ^= 0x01
    let alteredPath = folder.appendingPathComponent("altered.sqlite").path
    try bytes.write(to: URL(fileURLWithPath: alteredPath))
    let altered = try DatabaseQueue(path: alteredPath, configuration: newConfig)
    do {
        _ = try altered.read { db in try Row.fetchAll(db, sql: "SELECT * FROM player") }
        throw DemoFailure(message: "the altered page was read")
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
        print("      \(error.message ?? "")")
    }
    let failures = try altered.cipherIntegrityCheck()
    print("      integrity check: \(failures.map(\.message))")
    try check(failures.map(\.pageNumber) == [2], "expected page 2 to fail")
}

struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int
    var team: String?

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

step("boot a server: open an encrypted pool and migrate it, twice") {
    let poolPath = folder.appendingPathComponent("server.sqlite").path
    var migrator = DatabaseMigrator()
    migrator.registerMigration("createPlayer") { db in
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("score", .integer).notNull().indexed()
        }
    }
    migrator.registerMigration("addTeam") { db in
        try db.alter(table: "player") { t in t.add(column: "team", .text) }
    }
    for boot in 1...2 {
        let dbPool = try DatabasePool(path: poolPath, configuration: newConfig)
        try migrator.migrate(dbPool)
        let applied = try dbPool.read { db in try migrator.appliedMigrations(db) }
        print("      boot \(boot): migrations \(applied)")
        try check(applied == ["createPlayer", "addTeam"], "expected both migrations applied")
        try dbPool.close()
    }
}

step("records and query-interface requests on the pool") {
    let poolPath = folder.appendingPathComponent("server.sqlite").path
    let dbPool = try DatabasePool(path: poolPath, configuration: newConfig)
    try dbPool.write { db in
        for (name, score) in [("Arthur", 100), ("Barbara", 1000), ("Craig", 500), ("Diane", 750)] {
            var player = Player(id: nil, name: name, score: score, team: score > 600 ? "Reds" : nil)
            try player.insert(db)
        }
        try Player.filter { $0.name == "Craig" }.updateAll(db, Player.Columns.score += 10)
    }
    let (best, barbara, count) = try dbPool.read { db in
        let best = try Player
            .filter { $0.score > 500 }
            .order { $0.score.desc }
            .limit(10)
            .fetchAll(db)
        return (best, try Player.find(db, id: 2), try Player.fetchCount(db))
    }
    for player in best { print("      \(player.name): \(player.score)") }
    try check(best.map(\.name) == ["Barbara", "Diane", "Craig"], "unexpected order: \(best.map(\.name))")
    try check(barbara.name == "Barbara" && count == 4, "unexpected lookup")
    try dbPool.close()
}

/// What an observation delivered, shared with the demo's main thread.
final class ReceivedValues: @unchecked Sendable {   // safe: every access holds `lock`
    private let lock = NSLock()
    private var values: [[String]] = []
    let first = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)

    func append(_ value: [String]) -> Int {
        lock.lock(); defer { lock.unlock() }
        values.append(value)
        return values.count
    }

    var all: [[String]] {
        lock.lock(); defer { lock.unlock() }
        return values
    }
}

step("observe a request on the pool: a new value after a commit changes it") {
    let poolPath = folder.appendingPathComponent("server.sqlite").path
    let dbPool = try DatabasePool(path: poolPath, configuration: newConfig)
    let topPlayers = ValueObservation.tracking { db in
        try Player.order { $0.score.desc }.limit(2).fetchAll(db).map(\.name)
    }
    let received = ReceivedValues()
    // Detached: this top-level code runs on the main actor, which waits below.
    let observer = Task.detached {
        for try await names in topPlayers.values(in: dbPool) {
            let count = received.append(names)
            if count == 1 { received.first.signal() }
            if count == 2 { break }
        }
        received.done.signal()
    }
    try check(received.first.wait(timeout: .now() + 10) == .success, "no initial value")
    // A write to another table changes nothing the observation read.
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE note (text TEXT); INSERT INTO note VALUES ('hi')") }
    try dbPool.write { db in
        var player = Player(id: nil, name: "Eve", score: 5000, team: nil)
        try player.insert(db)
    }
    try check(received.done.wait(timeout: .now() + 10) == .success, "no value after the commit")
    observer.cancel()
    for names in received.all { print("      top players: \(names)") }
    try check(received.all == [["Barbara", "Diane"], ["Eve", "Barbara"]], "unexpected values: \(received.all)")
    try dbPool.close()
}

print("demo complete")
