import Foundation
import Testing
@testable import GRDBCipher

/// Real faults in another process: a full disk (`RLIMIT_FSIZE`) and kill -9.
/// After each, the file must be in one of two states only: the operation
/// failed and the old key reads everything, or it succeeded and the new key
/// reads everything; integrity checks are clean and nothing acknowledged is lost.
@Suite(.serialized) struct FaultInjectionTests {
    /// kill -9 iterations; more with GRDBCIPHER_FAULT_ITERATIONS.
    static let iterations = Int(ProcessInfo.processInfo.environment["GRDBCIPHER_FAULT_ITERATIONS"] ?? "") ?? 50

    private func makeDatabase(_ path: String, passphrase: String, rows: Int, wal: Bool) throws {
        var config = keyed(passphrase)
        if wal { config.journalMode = .wal }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
            let insert = try db.makeStatement(sql: "INSERT INTO t (payload) VALUES (?)")
            for index in 0..<rows { try insert.execute(values: "payload number \(index) of the fault tests") }
        }
        try dbQueue.close()
    }

    /// The row count and whether every check is clean, or nil when the key
    /// does not open the file.
    private func check(_ path: String, _ passphrase: String, table: String = "t") -> (rows: Int, clean: Bool)? {
        guard let dbQueue = try? DatabaseQueue(path: path, configuration: keyed(passphrase)) else { return nil }
        return try? dbQueue.read { db in
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)")!
            let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check")
            let cipherFailures = try db.cipherIntegrityCheck()
            return (rows, integrity == "ok" && cipherFailures.isEmpty)
        }
    }

    @Test(arguments: ["pool", "queue"])
    func aFullDiskDuringRotationLeavesOneKeyThatReadsEverything(kind: String) throws {
        let dir = try TemporaryDirectory()
        var outcomes: Set<String> = []
        // From failing at once to succeeding: the file is about 1.4 MB.
        for limit in [60_000, 700_000, 1_500_000, 2_000_000, 4_000_000] {
            let path = dir.path("\(kind)-\(limit).sqlite")
            try makeDatabase(path, passphrase: "old", rows: 20_000, wal: kind == "pool")
            let child = try ChildProcess(["rotate", kind, path, "old", "new", "\(limit)"])
            child.waitUntilExit()
            let output = child.output
            let old = check(path, "old")
            let new = check(path, "new")
            let wrote = output.contains("WROTE") ? 1 : 0
            if output.first == "ROTATED" {
                outcomes.insert("rotated")
                #expect(old == nil, "limit \(limit): \(output)")
                #expect(new?.rows == 20_000 + wrote && new?.clean == true, "limit \(limit): \(output)")
            } else {
                outcomes.insert("failed")
                #expect(output.first?.hasPrefix("FAILED") == true, "limit \(limit): \(output)")
                #expect(new == nil, "limit \(limit): \(output)")
                #expect(old?.rows == 20_000 + wrote && old?.clean == true, "limit \(limit): \(output)")
            }
        }
        #expect(outcomes == ["rotated", "failed"], "the limits should cover both outcomes")
    }

    @Test func killingARotatingPoolLeavesTheLastKeyOrTheNext() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let keys = ["k0", "k1", "k2"]
        try makeDatabase(path, passphrase: keys[0], rows: 300, wal: true)
        var current = 0
        for iteration in 0..<Self.iterations {
            let rotation = keys.indices.map { keys[(current + $0) % keys.count] }
            let child = try ChildProcess(["rotate-loop", path, rotation.joined(separator: ",")])
            #expect(child.waitForLine(startingWith: "ROTATING") != nil)
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.4))
            child.kill9()
            // The last acknowledged key, or the one being set when it died.
            let acknowledged = child.output.last(where: { $0.hasPrefix("KEY ") }).map { Int($0.dropFirst(4))! } ?? 0
            let candidates = [acknowledged, (acknowledged + 1) % keys.count].map { rotation[$0] }
            let opening = candidates.first { check(path, $0) != nil }
            let state = opening.flatMap { check(path, $0) }
            #expect(state?.rows == 300 && state?.clean == true, "iteration \(iteration): \(child.output)")
            guard let opening else { return }
            current = keys.firstIndex(of: opening)!
        }
    }

    @Test func aWriterKilledOverAndOverLosesNoAcknowledgedCommit() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var acknowledged = 0
        for restart in 0..<max(8, Self.iterations / 6) {
            let child = try ChildProcess(["writer-loop", path, "writer key"])
            #expect(child.waitForLine(startingWith: "ACK") != nil)
            Thread.sleep(forTimeInterval: Double.random(in: 0.1...0.4))
            child.kill9()
            acknowledged = child.output.compactMap { $0.hasPrefix("ACK ") ? Int($0.dropFirst(4)) : nil }.max() ?? acknowledged
            let dbQueue = try DatabaseQueue(path: path, configuration: keyed("writer key"))
            let (missing, integrity) = try dbQueue.read { db in
                (try Int.fetchOne(db, sql: "SELECT ? - count(*) FROM ack WHERE id <= ?", arguments: [acknowledged, acknowledged])!,
                 try String.fetchOne(db, sql: "PRAGMA integrity_check"))
            }
            try dbQueue.close()
            #expect(missing == 0, "restart \(restart): acknowledged commits lost")
            #expect(integrity == "ok")
        }
        #expect(acknowledged > 0)
    }
}
