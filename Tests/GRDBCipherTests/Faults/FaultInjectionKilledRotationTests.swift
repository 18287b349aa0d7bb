import Foundation
import Testing
@testable import GRDBCipher

/// kill -9 of a process that rotates the key over and over, at random
/// points. After each kill the file must open, intact, with the last key the
/// child acknowledged or with the key of the rotation it had begun, and with
/// no other; the next child starts from that key.
@Suite(.serialized) struct FaultInjectionKilledRotationTests {
    static let rows = 300
    static let keys = ["key zero", "key one", "key two"]
    static let kdfIterations = FaultFixture.cheapKDFIterations

    /// Kills `iterations` rotating children, and checks the file after each.
    private func killRotationsAtRandom(kind: String, wal: Bool, iterations: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let keys = Self.keys
        try FaultFixture.makeDatabase(
            at: path, passphrase: keys[0], rows: Self.rows, wal: wal, kdfIterations: Self.kdfIterations,
            payloadLength: 200)
        var current = 0   // the index of the key that opens the file
        var killsAfterItsCommit = 0
        for iteration in 0..<iterations {
            // The child's key 0 is the current key.
            let childKeys = keys.indices.map { keys[(current + $0) % keys.count] }
            let child = try ChildProcess(
                ["rotate-loop", "--kind", kind, "--path", path, "--keys", childKeys.joined(separator: ",")]
                    + FaultFixture.kdfArguments(Self.kdfIterations))
            try #require(child.waitForLine(prefix: "ROTATING") != nil, "iteration \(iteration): \(child.transcript)")
            Thread.sleep(forTimeInterval: .random(in: 0...0.04))
            child.kill9()

            // The last acknowledged key, and the key of a rotation begun after it.
            let lines = child.output
            let acknowledged = lines.last { $0.hasPrefix("KEY ") }.flatMap { Int($0.dropFirst(4)) } ?? 0
            var allowed = [childKeys[acknowledged]]
            if let last = lines.last, last.hasPrefix("ROTATING "), let target = Int(last.dropFirst(9)) {
                allowed.append(childKeys[target])
            }
            let views = KeyView.of(path, passphrases: keys, kdfIterations: Self.kdfIterations)
            let readers = keys.filter { views[$0] == .intact(rows: Self.rows) }
            let report = keys.map { "\($0): \(views[$0]!)" }.joined(separator: "; ")
            let context = "iteration \(iteration), allowed keys \(allowed), last lines \(lines.suffix(3)): \(report)"
            #expect(readers.count == 1 && allowed.contains(readers[0]), "\(context)")
            // Go on from the key that opens the file, even if damaged, to find more.
            let opening = keys.filter { !views[$0]!.isRefused }
            #expect(opening.count <= 1, "every other key must be refused: \(context)")
            guard opening.count == 1, let reader = opening.first else { return }
            if reader != childKeys[acknowledged] { killsAfterItsCommit += 1 }
            current = keys.firstIndex(of: reader)!
        }
        // Not a requirement: how often a kill came between a commit and its acknowledgment.
        print("\(kind): \(killsAfterItsCommit) of \(iterations) kills came after a rotation committed, before it was acknowledged")
    }

    @Test func killingARotatingPoolLeavesTheLastKeyOrTheOneInFlight() throws {
        try killRotationsAtRandom(kind: "pool", wal: true, iterations: FaultFixture.iterations)
    }

    /// With a rollback journal, a kill can leave a hot journal, which the
    /// next connection plays back: trying the wrong key first must not
    /// damage the file.
    @Test func killingARotatingRollbackJournalQueueLeavesTheLastKeyOrTheOneInFlight() throws {
        try killRotationsAtRandom(kind: "queue", wal: false, iterations: max(10, FaultFixture.iterations / 2))
    }
}
