import Foundation
import Testing
import CSQLCipher
@testable import GRDBCipher
import GRDBCipherTesting

/// A reviewer's attempts to break the promise of "Key rotation on a live
/// server": the call either returns and the new key reads every page, or
/// throws and the old key reads every row, on disk and through the same
/// queue or pool, which stays usable.
///
/// Each test: rotate, note the outcome, write once more through the same
/// queue or pool, close, then check with separate connections which key
/// reads every row (integrity_check + cipher_integrity_check).
@Suite(.serialized) struct RotationBreakTests {
    static let kdf = FaultFixture.cheapKDFIterations

    /// What one configuration finds in a file (as `KeyView.of`, with any configuration).
    static func view(_ path: String, _ config: Configuration, table: String = "t") -> KeyView {
        guard FileManager.default.fileExists(atPath: path) else { return .absent }
        let dbQueue: DatabaseQueue
        do { dbQueue = try DatabaseQueue(path: path, configuration: config) } catch { return .refused("\(error)") }
        defer { try? dbQueue.close() }
        do {
            _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch { return .refused("\(error)") }
        do {
            let (rows, integrity) = try dbQueue.read { db in
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1
                _ = try Int.fetchOne(db, sql: "SELECT sum(length(payload)) FROM \(table)")
                return (rows, try String.fetchAll(db, sql: "PRAGMA integrity_check"))
            }
            let cipher = try dbQueue.cipherIntegrityCheck().map(\.message)
            guard integrity == ["ok"], cipher.isEmpty else { return .damaged("\(integrity) \(cipher.prefix(3))") }
            return .intact(rows: rows)
        } catch { return .damaged("\(error)") }
    }

    static func config(_ passphrase: String, wal: Bool = false) -> Configuration {
        var config = FaultFixture.configuration(passphrase, kdfIterations: kdf)
        if wal { config.journalMode = .wal }
        return config
    }

    static func makeDatabase(_ path: String, key: String = "old", rows: Int = 500, wal: Bool = false) throws {
        try FaultFixture.makeDatabase(at: path, passphrase: key, rows: rows, wal: wal, kdfIterations: kdf, payloadLength: 200)
    }

    /// Records the promise for one outcome: exactly one of old/new reads `rows`.
    static func expectPromise(
        _ path: String, rotated: Bool, old: Configuration, new: Configuration, rows: Int, _ step: String,
        sourceLocation: SourceLocation = #_sourceLocation)
    {
        let oldView = view(path, old)
        let newView = view(path, new)
        let (reading, refused) = rotated ? (newView, oldView) : (oldView, newView)
        #expect(
            reading == .intact(rows: rows) && refused.isRefused,
            "\(step): call \(rotated ? "returned" : "threw"); old key: \(oldView); new key: \(newView)",
            sourceLocation: sourceLocation)
    }

    // MARK: - 1. PRAGMA locking_mode = EXCLUSIVE set by the user

    /// The rotating connection keeps its exclusive file lock after the
    /// commit, so the fresh proof connection gets SQLITE_BUSY (after 10 s)
    /// and the rotation is judged failed although SQLCipher committed it.
    /// The recovery then reopens with the OLD key a file under the NEW key.
    @Test(arguments: [false, true])
    func exclusiveLockingModeSetByTheUser(wal: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: wal)
        var config = Self.config("old", wal: wal)
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        var rotated = false
        var rotationError: (any Error)?
        do { try dbQueue.changePassphrase("new"); rotated = true } catch { rotationError = error }
        var rows = 500
        var writeError: (any Error)?
        do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
            rows += 1
        } catch { writeError = error }
        #expect(writeError == nil, "the queue must stay usable: \(String(describing: writeError)); rotation error: \(String(describing: rotationError))")
        try? dbQueue.close()
        Self.expectPromise(
            path, rotated: rotated, old: Self.config("old"), new: Self.config("new"), rows: rows,
            "locking_mode EXCLUSIVE, wal \(wal), rotation error \(String(describing: rotationError))")
    }

    // MARK: - 2. Plaintext header (raw key + salt), rotated to another key

    static func rawKeyBytes(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }
    static let salt = Data((0..<16).map { UInt8($0 + 1) })

    static func headerConfig(_ key: DatabaseKey) -> Configuration {
        var config = Configuration()
        config.key = key
        config.cipherSettings.plaintextHeaderSize = 32
        config.cipherSettings.kdfIterations = kdf
        return config
    }

    /// A plaintext header needs a raw key with its salt (the configuration
    /// refuses any other key). Rotation does not check that.
    @Test(arguments: ["passphrase", "raw key without salt", "raw key with salt"])
    func plaintextHeaderRotatedToAnotherKindOfKey(_ kind: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let oldKey = try DatabaseKey.rawKey(Self.rawKeyBytes(0xA1), salt: Self.salt)
        let newKey: DatabaseKey = switch kind {
        case "passphrase": .passphrase("new passphrase")
        case "raw key without salt": try .rawKey(Self.rawKeyBytes(0xB2))
        default: try .rawKey(Self.rawKeyBytes(0xB2), salt: Self.salt)
        }
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: Self.headerConfig(oldKey))
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
                for _ in 0..<200 { try db.execute(sql: "INSERT INTO t (payload) VALUES (hex(randomblob(100)))") }
            }
            try dbQueue.close()
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: Self.headerConfig(oldKey))
        var rotated = false
        var rotationError: (any Error)?
        do { try dbQueue.changeKey(newKey); rotated = true } catch { rotationError = error }
        var rows = 200
        var writeError: (any Error)?
        do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
            rows += 1
        } catch { writeError = error }
        try? dbQueue.close()
        #expect(writeError == nil, "the queue must stay usable: \(String(describing: writeError)); rotation: \(String(describing: rotationError))")
        // The new key's view: the configuration refuses a passphrase with a
        // plaintext header, so read it as SQLCipher would with the salt given.
        let oldView = Self.view(path, Self.headerConfig(oldKey))
        let newView: String
        switch kind {
        case "passphrase":
            newView = (try? SQLCipherShell.run(path, key: nil, script: """
                PRAGMA key = 'new passphrase'; PRAGMA cipher_salt = "x'\(Self.salt.map { String(format: "%02x", $0) }.joined())'";
                PRAGMA cipher_plaintext_header_size = 32; PRAGMA kdf_iter = \(Self.kdf);
                SELECT 'rows=' || count(*) FROM t;
                """).replacingOccurrences(of: "\n", with: " ")) ?? "refused"
        default:
            newView = "\(Self.view(path, Self.headerConfig(newKey)))"
        }
        #expect(
            rotated ? !newView.contains("refused") && oldView.isRefused : oldView == .intact(rows: rows),
            "\(kind): call \(rotated ? "returned" : "threw \(String(describing: rotationError))"); old key: \(oldView); new key: \(newView)")
    }

    // MARK: - 3. Rotation inside the user's transaction

    /// As with GRDB, SQLCipher commits what the transaction changed before
    /// the rotation together with it (documented in the README): a closure
    /// that throws afterwards cannot take those rows back.
    @Test func rotationInsideAUserTransactionCommitsItsEarlierChangesAsInGRDB() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path)
        let dbQueue = try DatabaseQueue(path: path, configuration: Self.config("old"))
        #expect(throws: Boom.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t (payload) VALUES ('committed by the rotation')")
                try db.changePassphrase("new")
                throw Boom()
            }
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t")! } == 501)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        try dbQueue.close()
        Self.expectPromise(path, rotated: true, old: Self.config("old"), new: Self.config("new"), rows: 502, "inside a user transaction")
    }

    struct Boom: Error {}

    // MARK: - 4. PRAGMA key in prepareDatabase

    /// A pool's readers open through `prepareDatabase`, whose `PRAGMA key`
    /// the pool cannot change (documented): the queue only.
    @Test(arguments: ["queue"])
    func pragmaKeyInPrepareDatabase(_ kind: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: kind == "pool")
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA key = 'old'")
            try db.execute(sql: "PRAGMA kdf_iter = \(Self.kdf)")
        }
        if kind == "pool" { config.journalMode = .wal }
        let writer: any DatabaseWriter = kind == "pool"
            ? try DatabasePool(path: path, configuration: config) : try DatabaseQueue(path: path, configuration: config)
        _ = try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        if let pool = writer as? DatabasePool { try pool.changePassphrase("new") } else { try (writer as! DatabaseQueue).changePassphrase("new") }
        #expect(throws: Never.self, "write after rotation") {
            try writer.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        }
        #expect(throws: Never.self, "read after rotation") {
            _ = try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        }
        try writer.close()
        Self.expectPromise(path, rotated: true, old: Self.config("old"), new: Self.config("new"), rows: 501, "PRAGMA key \(kind)")
    }

    // MARK: - 5. Pool variants

    @Test func persistentReadOnlyConnections() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: true)
        var config = Self.config("old", wal: true)
        config.persistentReadOnlyConnections = true
        let pool = try DatabasePool(path: path, configuration: config)
        for _ in 0..<3 { _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } }
        try pool.changePassphrase("new")
        for _ in 0..<5 { #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 500) }
        try pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 501)
        try pool.close()
        Self.expectPromise(path, rotated: true, old: Self.config("old"), new: Self.config("new"), rows: 501, "persistent readers")
    }

    @Test func barrierWriteSpelling() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: true)
        let pool = try DatabasePool(path: path, configuration: Self.config("old", wal: true))
        _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        try pool.barrierWriteWithoutTransaction { db in try db.changePassphrase("new") }
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 500)
        try pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        try pool.close()
        Self.expectPromise(path, rotated: true, old: Self.config("old"), new: Self.config("new"), rows: 501, "barrier")
    }

    /// Database.changePassphrase inside a pool's plain write {} (not a barrier):
    /// readers are not waited for.
    @Test func plainWriteSpellingInAPool() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: true)
        let pool = try DatabasePool(path: path, configuration: Self.config("old", wal: true))
        _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        var rotated = false
        do { try pool.write { db in try db.changePassphrase("new") }; rotated = true } catch {}
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 500)
        try pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        try pool.close()
        Self.expectPromise(path, rotated: rotated, old: Self.config("old"), new: Self.config("new"), rows: 501, "pool write {}")
    }

    /// Back and forth many times, while another connection of the process
    /// holds a read transaction on the WAL (old-key frames stay).
    @Test func manyRotationsBackAndForthWithAReaderHoldingTheWAL() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: true)
        let pool = try DatabasePool(path: path, configuration: Self.config("k0", wal: false).with(passphrase: "old", wal: true))
        var holderConfig = Self.config("old", wal: true)
        holderConfig.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: path, configuration: holderConfig)
        let keys = ["a", "b", "old", "a", "b", "old", "a", "b", "c", "a"]
        var rows = 500
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
        }
        for key in keys {
            try pool.changePassphrase(key)
            try pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after \(key)')") }
            rows += 1
            #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == rows)
        }
        // The old reader still reads its snapshot.
        #expect(try holder.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 500)
        try holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try holder.close()
        try pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('last')") }
        rows += 1
        try pool.close()
        Self.expectPromise(path, rotated: true, old: Self.config("b"), new: Self.config("a"), rows: rows, "many rotations")
    }

    // MARK: - 6. Keys and cipher settings

    @Test(arguments: [(3, nil as Int?), (nil as Int?, 4_000 as Int?)])
    func cipherSettings(_ compatibility: Int?, _ iterations: Int?) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try FaultFixture.makeDatabase(at: path, passphrase: "old", rows: 300, wal: true, kdfIterations: iterations, compatibility: compatibility)
        var config = FaultFixture.configuration("old", kdfIterations: iterations, compatibility: compatibility)
        config.journalMode = .wal
        let pool = try DatabasePool(path: path, configuration: config)
        try pool.changePassphrase("new")
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 300)
        try pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        try pool.close()
        Self.expectPromise(
            path, rotated: true, old: FaultFixture.configuration("old", kdfIterations: iterations, compatibility: compatibility),
            new: FaultFixture.configuration("new", kdfIterations: iterations, compatibility: compatibility), rows: 301, "settings")
    }

    @Test(arguments: ["raw", "raw+file salt", "raw+other salt"])
    func rawKeys(_ kind: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: true)
        let fileSalt = try fileBytes(path).prefix(16)
        let newKey: DatabaseKey = switch kind {
        case "raw": try .rawKey(Self.rawKeyBytes(0xC3))
        case "raw+file salt": try .rawKey(Self.rawKeyBytes(0xC3), salt: Data(fileSalt))
        default: try .rawKey(Self.rawKeyBytes(0xC3), salt: Self.salt)
        }
        let pool = try DatabasePool(path: path, configuration: Self.config("old", wal: true))
        var rotated = false
        var rotationError: (any Error)?
        do { try pool.changeKey(newKey); rotated = true } catch { rotationError = error }
        var rows = 500
        do {
            try pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
            rows += 1
        } catch { Issue.record("pool unusable: \(error); rotation: \(String(describing: rotationError))") }
        try pool.close()
        var newConfig = Configuration()
        newConfig.key = newKey
        Self.expectPromise(path, rotated: rotated, old: Self.config("old"), new: newConfig, rows: rows, "\(kind), rotation error \(String(describing: rotationError))")
    }

    // MARK: - 7. Odd databases

    @Test func attachedDatabase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let other = dir.path("other.sqlite")
        try Self.makeDatabase(path)
        try FaultFixture.makeDatabase(at: other, passphrase: "other", rows: 10, wal: false)
        let dbQueue = try DatabaseQueue(path: path, configuration: Self.config("old"))
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS aux KEY 'other'", arguments: [other])
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM aux.t")
        }
        try dbQueue.changePassphrase("new")
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')")
            try db.execute(sql: "INSERT INTO aux.t (payload) VALUES ('after')")
        }
        try dbQueue.close()
        Self.expectPromise(path, rotated: true, old: Self.config("old"), new: Self.config("new"), rows: 501, "main")
        #expect(Self.view(other, FaultFixture.configuration("other")) == .intact(rows: 11))
    }

    @Test(arguments: [false, true])
    func emptyDatabase(wal: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: Self.config("old", wal: wal))
        try dbQueue.changePassphrase("new")
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
            try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')")
        }
        try dbQueue.close()
        Self.expectPromise(path, rotated: true, old: Self.config("old"), new: Self.config("new"), rows: 1, "empty, wal \(wal)")
    }

    @Test func inMemoryDatabase() throws {
        let dbQueue = try DatabaseQueue(configuration: Self.config("old"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
            try db.execute(sql: "INSERT INTO t (payload) VALUES ('x')")
        }
        var outcome = "returned"
        do { try dbQueue.changePassphrase("new") } catch { outcome = "threw \(error)" }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 2, "\(outcome)")
    }

    // MARK: - 8. Concurrency

    @Test func asyncReadsAndWritesQueuedAroundTheRotation() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: true)
        let pool = try DatabasePool(path: path, configuration: Self.config("old", wal: true))
        let failures = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<60 {
                group.addTask {
                    do {
                        if index % 3 == 0 {
                            try await pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('w')") }
                        } else {
                            _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT sum(length(payload)) FROM t") }
                        }
                        return nil
                    } catch { return "op \(index): \(error)" }
                }
                if index == 30 {
                    group.addTask {
                        do { try await pool.changePassphrase("new"); return nil } catch { return "rotation: \(error)" }
                    }
                }
            }
            var failures: [String] = []
            for try await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(failures.isEmpty, "\(failures)")
        try await pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        try pool.close()
        Self.expectPromise(path, rotated: true, old: Self.config("old"), new: Self.config("new"), rows: 521, "async")
    }

    @Test func valueObservationDuringRotation() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try Self.makeDatabase(path, wal: true)
        let pool = try DatabasePool(path: path, configuration: Self.config("old", wal: true))
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t")! }
        let (stream, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let cancellable = observation.start(
            in: pool, scheduling: .async(onQueue: DispatchQueue(label: "obs")),
            onError: { continuation.yield(.failure($0)) }, onChange: { continuation.yield(.success($0)) })
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next()?.get() == 500)
        try await pool.changePassphrase("new")
        try await pool.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after')") }
        var last: Int?
        while let value = await iterator.next() {
            switch value {
            case let .success(count): last = count
            case let .failure(error): Issue.record("observation failed: \(error)")
            }
            if last == 501 || last == nil { break }
        }
        #expect(last == 501)
        cancellable.cancel()
        try pool.close()
        Self.expectPromise(path, rotated: true, old: Self.config("old"), new: Self.config("new"), rows: 501, "observation")
    }
}

extension Configuration {
    func with(passphrase: String, wal: Bool) -> Configuration {
        var config = self
        config.passphrase = passphrase
        if wal { config.journalMode = .wal }
        return config
    }
}

// MARK: - 9. Faults in a child process

/// Runs the child's `rotate` with extra arguments, then checks the file
/// after the call, after one more write, and after closing.
@Suite(.serialized) struct RotationBreakChildTests {
    static let rows = 1_500
    static let kdf = FaultFixture.cheapKDFIterations

    @discardableResult
    static func run(
        kind: String, wal: Bool, extra: [String], insertsInRotation: Bool = false, fsizeFraction: Double? = nil,
        sourceLocation: SourceLocation = #_sourceLocation) throws -> String
    {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try FaultFixture.makeDatabase(at: path, passphrase: "old", rows: rows, wal: wal, kdfIterations: kdf, payloadLength: 200)
        let size = FaultFixture.fileSize(path)
        var arguments = ["rotate", "--kind", kind, "--path", path, "--old", "old", "--new", "new"]
            + FaultFixture.kdfArguments(kdf) + extra
        if let fsizeFraction { arguments += ["--fsize", "\(Int(Double(size) * fsizeFraction))"] }
        let child = try ChildProcess(arguments)
        let context = { "\(kind) wal \(wal) \(extra) fsize \(String(describing: fsizeFraction)): \(child.transcript)" }
        try #require(child.waitForLine(prefix: "READY") != nil, "\(context())", sourceLocation: sourceLocation)
        child.send("rotate")
        guard let outcome = child.waitForLine(prefixes: ["ROTATED", "FAILED"]) else {
            Issue.record("no outcome: \(context())", sourceLocation: sourceLocation)
            return "none"
        }
        let rotated = outcome == "ROTATED"
        var rows = rows + (insertsInRotation && rotated ? 1 : 0)
        func check(_ step: String) {
            expectOneKeyReadsEverything(
                path, succeeded: rotated, old: "old", new: "new", rows: rows, kdfIterations: kdf,
                "\(step); \(context())", sourceLocation: sourceLocation)
        }
        check("after the call")
        child.send("write")
        let write = child.waitForLine(prefix: "WR")
        #expect(write == "WROTE", "the write after the rotation: \(context())", sourceLocation: sourceLocation)
        if write == "WROTE" { rows += 1 }
        check("after one more write")
        child.send("close")
        _ = child.waitUntilExit()
        #expect(child.output.last == "CLOSED", "\(context())", sourceLocation: sourceLocation)
        check("after closing")
        return outcome
    }

    /// No file descriptor left (EMFILE) for the proof connection, or for
    /// the journal: a real fault of a busy server.
    @Test(arguments: [("queue", false), ("queue", true), ("pool", true)], [0, 1, 2, 3])
    func fileDescriptorsExhausted(_ setup: (String, Bool), _ spare: Int) throws {
        try Self.run(kind: setup.0, wal: setup.1, extra: ["--exhaust-fds", "\(spare)"])
    }

    /// Database.changePassphrase inside `write {}` after an INSERT of the
    /// same transaction, under file-size limits.
    @Test(arguments: [false, true], [0.0, 0.5, 1.0, 1.5])
    func insideAUserTransactionUnderAFileSizeLimit(_ wal: Bool, _ fraction: Double) throws {
        try Self.run(
            kind: "queue", wal: wal, extra: ["--via", "db-write-insert"], insertsInRotation: true, fsizeFraction: fraction)
    }

    @Test(arguments: [0.0, 0.5, 1.0, 1.5])
    func barrierLessDatabaseSpellingUnderAFileSizeLimit(_ fraction: Double) throws {
        try Self.run(kind: "pool", wal: true, extra: ["--via", "db-write"], fsizeFraction: fraction)
    }
}
