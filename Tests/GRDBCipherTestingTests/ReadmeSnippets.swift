import Foundation
import GRDBCipher
import GRDBCipherS3

// The README's Swift blocks, each verbatim between `// README: name` and
// `// README: end`, in the context it shows: an `async` function where it
// awaits, with the names it uses as parameters. This file is compiled, never
// run; ReadmeSnippetTests checks that the README shows these regions as
// they are here (its blocks marked `<!-- compiled: ReadmeSnippets.swift#name -->`).

/// A secret store of the app (the `prepareDatabase` block).
protocol SecretStore: Sendable {
    func databasePassphrase() throws -> String
}

/// Where a server sends its events (the observation block).
actor Broadcaster {
    func send(_ event: [String: Int]) {}
}

/// An outbox that a commit wakes up (the observation block).
final class Outbox: Sendable {
    func wakeUp() {}
}

/// A record of the observation block.
struct Order: Codable, PersistableRecord {
    var item: String
    var quantity: Int
}

/// The README's blocks, compiled.
enum ReadmeSnippets {
    static func tour(imported: [(String, Int)], wrongConfig: Configuration) async throws {
        // README: tour
        var config = Configuration()
        config.passphrase = "correct horse battery staple"   // applied to every connection, first
        let dbQueue = try DatabaseQueue(path: "/var/lib/myapp/db.sqlite", configuration: config)

        try await dbQueue.write { db in                      // one transaction
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS player (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    score INTEGER NOT NULL,
                    createdAt DATETIME NOT NULL)
                """)
            try db.execute(
                sql: "INSERT INTO player (name, score, createdAt) VALUES (?, ?, ?)",
                arguments: ["Arthur", 100, Date()])
            let name = "O'Brien"                              // interpolated values are bound, never spliced
            try db.execute(literal: "INSERT INTO player (name, score, createdAt) VALUES (\(name), \(250), \(Date()))")
        }

        // Rows stay inside the access (they are not Sendable, as in GRDB): read what you need.
        let best = try await dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY score DESC LIMIT ?", arguments: [10])
                .map { row -> (name: String, createdAt: Date) in (row["name"], row["createdAt"]) }
        }
        for player in best {
            print(player.name, player.createdAt)
        }

        // Cursors iterate lazily; prepared statements are cached and reused.
        try await dbQueue.read { db in
            let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
            while let name = try names.next() { print(name) }
            let statement = try db.cachedStatement(sql: "SELECT score FROM player WHERE name = ?")
            print(try Int.fetchOne(statement, arguments: ["Arthur"]) ?? 0)
        }

        // Bulk inserts: `execute(values:)` binds each value with its own type, close to
        // the cost of the C API (an array literal of arguments holds `any` values).
        try await dbQueue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO player (name, score, createdAt) VALUES (?, ?, ?)")
            for (name, score) in imported {
                try insert.execute(values: name, score, Date())
            }
        }

        // Errors are values; result codes work as catch patterns.
        do {
            _ = try DatabaseQueue(path: "/var/lib/myapp/db.sqlite", configuration: wrongConfig)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            // error.message: "file is not a database" (SQLite's, as in GRDB)
            // error.hint, also in error.description: "wrong passphrase or key, or other cipher
            // settings than the file's" (or "the file is not encrypted", "opened without a key", ...)
        }

        // Key rotation: it either returns and the new passphrase opens the file, or
        // throws and the old one still does (see "Key rotation on a live server").
        try await dbQueue.changePassphrase("a new passphrase")
        // README: end
    }

    static func records(dbQueue: DatabaseQueue) async throws {
        // README: records
        try await dbQueue.write { db in
            var player = Player(id: nil, name: "Barbara", score: 1000, createdAt: Date())
            try player.insert(db)                      // INSERT INTO "player" ("id", "name", "score", "createdAt") VALUES (?,?,?,?)
            player.score += 10
            try player.update(db)                      // UPDATE "player" SET "name"=?, "score"=?, "createdAt"=? WHERE "id"=?
            try player.updateChanges(db) { $0.score = 0 }  // UPDATE "player" SET "score"=? WHERE "id"=?
        }

        let (barbara, best) = try await dbQueue.read { db in
            let barbara = try Player.find(db, id: 1)   // throws RecordError.recordNotFound if there is none
            let best = try Player
                .filter(Player.Columns.score > 500)
                .order(Player.Columns.score.desc)
                .limit(10)
                .fetchAll(db)                          // SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10
            return (barbara, best)
        }
        // README: end
        _ = (barbara, best)
    }

    static func pool() async throws {
        // README: pool
        var config = Configuration()
        config.passphrase = "correct horse battery staple"
        config.maximumReaderCount = 5                         // the default
        let dbPool = try DatabasePool(path: "/var/lib/myapp/db.sqlite", configuration: config)

        // Each migration runs once, in order, in its own IMMEDIATE transaction, recorded in
        // `grdb_migrations` as GRDB records it (a database a GRDB app migrated continues here).
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createPlayer") { db in
            try db.create(table: "player") { t in             // CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, ...
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().indexed()  // ... and CREATE INDEX "player_on_score" ON "player"("score")
                t.column("createdAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("addTeam") { db in
            try db.alter(table: "player") { t in t.add(column: "team", .text) }
        }
        try migrator.migrate(dbPool)                          // readers see the schema before or after, never between

        // Query-interface requests run on concurrent readers.
        let best: [Player] = try await dbPool.read { db in
            try Player
                .filter { $0.score > 500 }
                .order { $0.score.desc }
                .limit(10)
                .fetchAll(db)                                 // SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10
        }

        // The request methods of the record (see `best()` above).
        let bestCount = try await dbPool.read { db in try Player.all().best().fetchCount(db) }

        // JSON columns: SQLite's ->> operator and JSON functions.
        let info = JSONColumn("info")
        let countries = try await dbPool.read { db in
            try Table("profile").select(info["country"], as: String.self).distinct().fetchAll(db)
        }                                                     // SELECT DISTINCT "info" ->> ? FROM "profile"

        // Observe a request: its first value, then a new one after each commit that
        // changes what it read, fetched on a reader; the loop ends with its task.
        let topPlayers = ValueObservation.tracking { db in
            try Player.order { $0.score.desc }.limit(10).fetchAll(db)
        }
        let observer = Task {
            for try await players in topPlayers.values(in: dbPool) {
                print("top players:", players.map(\.name))
            }
        }

        // Code written against the protocols runs on queues and pools alike.
        func playerCount(_ reader: some DatabaseReader) async throws -> Int {
            try await reader.read { db in try Player.fetchCount(db) }
        }

        // A frozen view, and a read that starts from exactly what a write committed.
        let snapshot = try dbPool.makeSnapshot()
        try await dbPool.writeWithoutTransaction { db in
            try Player.updateAll(db, Player.Columns.score.set(to: 0))
            dbPool.asyncConcurrentRead { result in /* sees the update, not what follows */ }
            try Player.deleteAll(db)
        }

        // Rotate the key while requests run: running reads finish, new ones wait,
        // every reader reopens with the new key. If it fails, the old key still works.
        try await dbPool.changePassphrase("a new passphrase")
        // README: end
        _ = (best, bestCount, countries, observer, snapshot)
    }

    static func prepareDatabase(secrets: some SecretStore) {
        // README: prepareDatabase
        var config = Configuration()
        config.prepareDatabase { db in
            try db.usePassphrase(try secrets.databasePassphrase())   // String or Data
        }
        // README: end
        _ = config
    }

    static func userVersion(migrator: inout DatabaseMigrator) {
        // README: userVersion
        migrator.registerMigration("createUsers", appliedIfUserVersionAtLeast: 1) { db in
            try db.execute(sql: "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        migrator.registerMigration("addEmail", appliedIfUserVersionAtLeast: 2) { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN email TEXT")
        }
        migrator.registerMigration("createSessions") { db in      // new steps, as usual
            try db.create(table: "session") { t in t.primaryKey("token", .text) }
        }
        // README: end
    }

    static func fullTextSearch(db: Database) throws {
        // README: fts
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text).notNull()
            t.column("body", .text).notNull()
        }
        // An FTS5 index of "book", kept up to date by triggers (rows already there are indexed too)
        try db.create(virtualTable: "book_ft", using: FTS5()) { t in
            t.synchronize(withTable: "book")
            t.tokenizer = .porter()                        // "databases" matches "database"
            t.column("title")
            t.column("body")
        }
        // User input becomes a valid pattern, or nil
        let pattern = FTS5Pattern(matchingAllTokensIn: "encrypted databases")
        // SELECT * FROM "book_ft" WHERE "book_ft" MATCH ? ORDER BY "rank"
        let rows = try Table("book_ft").all().matching(pattern).order(Column.rank).fetchAll(db)
        // README: end
        _ = rows
    }

    static func observation(dbPool: DatabasePool, broadcaster: Broadcaster, outbox: Outbox) async throws {
        // README: observation
        // Server-sent events, or a cache to invalidate: one value per change.
        for try await count in ValueObservation.tracking(Player.fetchCount).values(in: dbPool) {
            await broadcaster.send(["players": count])
        }

        // An outbox: what a transaction wrote is published once it committed.
        try await dbPool.write { db in
            try Order(item: "book", quantity: 1).insert(db)
            db.afterNextTransaction { _ in outbox.wakeUp() }
        }
        // README: end
    }

    static func cipherSettings(dbQueue: DatabaseQueue, path: String, keyBytes: Data, saltBytes: Data) async throws {
        // README: cipherSettings
        var config = Configuration()
        config.passphrase = "secret"
        config.cipherSettings = .sqlcipher3                      // a file written by SQLCipher 3
        config.cipherSettings = CipherSettings(kdfIterations: 500_000, pageSize: 8192)

        config.key = try .rawKey(keyBytes)                       // 32 bytes: no key derivation at all
        config.key = try .rawKey(keyBytes, salt: saltBytes)      // and the file's 16-byte salt
        // CipherSettings also has kdfAlgorithm, hmacAlgorithm, usesHMAC,
        // plaintextHeaderSize (needs a raw key with its salt) and memorySecurity (process-wide).

        let settings = try await dbQueue.read { db in try db.cipherSettings }  // in effect, read back
        let version = SQLCipherLibrary.cipherVersion             // "4.6.1 community"
        let encrypted = try DatabaseFile.isEncrypted(atPath: path)  // header test, no key needed
        // README: end
        _ = (config, settings, version, encrypted)
    }

    static func backupAndExport(dbPool: DatabasePool, dbQueue: DatabaseQueue, config: Configuration) async throws {
        // README: backup
        // Backup: GRDB's API. Pages are copied as they are, re-encrypted with the
        // destination's key; both sides need the same cipher settings.
        let copy = try DatabaseQueue(path: "/var/backups/db.sqlite", configuration: config)
        try await dbPool.backup(to: copy, pagesPerStep: 100) { progress in
            print("\(progress.completedPageCount)/\(progress.totalPageCount)")  // throw here to cancel
        }

        // Export: a new file with another key, other settings, or none (SQLCipher's sqlcipher_export).
        try await dbPool.export(to: "/var/backups/db-v3.sqlite",
                                encryption: .encrypted(key: .passphrase("other"), settings: .sqlcipher3))
        try await dbQueue.export(to: "/tmp/clear.sqlite", encryption: .plaintext)
        // README: end
    }

    static func tampering(dbPool: DatabasePool, path: String) async throws {
        // README: tampering
        // Open as is, or upgrade in place to SQLCipher 4's defaults: an export with the same key
        // (schema, rows, user_version, application_id), checked, then renamed over the original.
        let outcome = try await DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("secret"))
        // .upgraded(fromCompatibility: 3), or .alreadyCurrent; a failed upgrade leaves the file as it was.

        // A page whose bytes were altered fails its reads with SQLITE_CORRUPT ("a page failed
        // authentication"); the integrity check lists the failing pages (empty when intact).
        let failures = try await dbPool.cipherIntegrityCheck()  // [CipherIntegrityFailure(pageNumber: 2, ...)]
        // README: end
        _ = (outcome, failures)
    }

    static func rotation(dbPool: DatabasePool, dbQueue: DatabaseQueue, newPassphrase: String) async throws {
        // README: rotation
        try await dbPool.changePassphrase(newPassphrase)       // or changeKey(.rawKey(newKeyBytes))
        // Connections opened later need the new passphrase in their configuration.
        // GRDB's spellings work too, with the same guarantees:
        try await dbQueue.write { db in try db.changePassphrase(newPassphrase) }
        try await dbPool.barrierWriteWithoutTransaction { db in try db.changePassphrase(newPassphrase) }
        // README: end
    }

    static func exportAndSwap(dbPool: inout DatabasePool, path: String, newPassphrase: String) async throws {
        // README: exportAndSwap
        var newConfig = Configuration()
        newConfig.key = .passphrase(newPassphrase)
        newConfig.cipherSettings.kdfIterations = 500_000
        try await dbPool.export(to: path + ".rotated",
                                encryption: .encrypted(key: newConfig.key!, settings: newConfig.cipherSettings))
        try dbPool.close()                                      // waits for running accesses
        try DatabaseFile.replace(atPath: path, with: path + ".rotated")   // atomic and durable rename, old WAL removed
        dbPool = try DatabasePool(path: path, configuration: newConfig)
        // README: end
    }

    static func reencrypt(path: String, oldPassphrase: String, newPassphrase: String) throws {
        // README: reencrypt
        try DatabaseFile.reencrypt(atPath: path, key: .passphrase(oldPassphrase),
                                   newKey: .passphrase(newPassphrase),
                                   newSettings: CipherSettings(kdfIterations: 500_000))
        // README: end
    }

    static func envelope(path: String, newKEK: KeyEncryptionKey, backupPath: String) async throws {
        // README: envelope
        let kek = try KeyEncryptionKey.passphraseFile(atPath: "/run/secrets/kek")   // scrypt-stretched
        // or: try KeyEncryptionKey.rawKey(bytes32), KeyEncryptionKey.command(["vault", "read", "-field=kek", "db"])
        var config = Configuration()
        config.key = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: kek,
                                                 creatingIfMissing: true).key
        let dbPool = try DatabasePool(path: path, configuration: config)

        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: kek, to: newKEK)      // milliseconds, pool open
        try await dbPool.backupWithEnvelope(to: backupPath, keyEncryptionKey: newKEK) // the copy and its envelope

        try dbPool.close()   // a data-key rotation needs the file to itself, and refuses it otherwise
        try DatabaseEnvelope.rotateDataKey(forDatabaseAt: path, keyEncryptionKey: newKEK) // re-encrypts the file
        // README: end
    }
}

/// The replication block: a pool, its passphrase, and a time to restore to.
func readmeReplication(dbPool: DatabasePool, passphrase: String, nineOClock: Date) async throws {
    // README: replication
    // import GRDBCipherS3; the AWS_* variables give the credentials, region and endpoint
    let store = try S3ReplicaStore(url: "s3://backups/apps/app")   // or FolderReplicaStore(path:)
    let replicator = try await DatabaseReplicator.start(dbPool, to: store)  // the pool's own key
    // ... the app runs; replicator.status tells the lag and the last error ...
    await replicator.stop()   // a last shipment, then SQLite's checkpoints are back

    // On another machine, into a new file (an existing one is refused):
    let replica = DatabaseReplica(store: store, key: .passphrase(passphrase))
    // or DatabaseReplica(store: store, keyEncryptionKey: kek) for an enveloped database
    try await replica.restore(to: "/data/app.sqlite")                       // the latest state
    try await replica.restore(to: "/data/app-9h.sqlite", at: nineOClock)    // a point in time
    // README: end
}

// README: player
struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int
    var createdAt: Date

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }

    // The id of a new player is the rowid SQLite gave it.
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

// Methods of your own for every request of a record, as in GRDB.
extension DerivableRequest<Player> {
    func best() -> Self { filter { $0.score > 500 }.order { $0.score.desc } }
}
// README: end
