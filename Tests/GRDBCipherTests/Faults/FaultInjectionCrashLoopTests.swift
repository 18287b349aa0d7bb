import Foundation
import Testing
@testable import GRDBCipher

/// A writer on an encrypted WAL pool, killed with SIGKILL over and over and
/// restarted on the same file: every commit it acknowledged must survive,
/// and the file must stay intact.
@Suite(.serialized) struct FaultInjectionCrashLoopTests {
    static let kdfIterations = FaultFixture.cheapKDFIterations
    static var restarts: Int { max(10, FaultFixture.iterations / 5) }

    @Test func aWriterKilledOverAndOverLosesNoAcknowledgedCommit() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var acknowledged = Set<Int>()
        for restart in 0..<Self.restarts {
            let child = try ChildProcess(
                ["writer-loop", "--path", path, "--key", "writer key"] + FaultFixture.kdfArguments(Self.kdfIterations))
            try #require(child.waitForLine(prefix: "ACK ") != nil, "restart \(restart): \(child.transcript)")
            Thread.sleep(forTimeInterval: .random(in: 0.1...0.4))
            child.kill9()
            acknowledged.formUnion(child.output.compactMap { $0.hasPrefix("ACK ") ? Int($0.dropFirst(4)) : nil })

            let dbQueue = try DatabaseQueue(
                path: path, configuration: FaultFixture.configuration("writer key", kdfIterations: Self.kdfIterations))
            let (stored, integrity) = try dbQueue.read { db in
                (Set(try Int.fetchAll(db, sql: "SELECT id FROM ack WHERE length(payload) = 1024")),
                 try String.fetchAll(db, sql: "PRAGMA integrity_check"))
            }
            let cipherFailures = try dbQueue.cipherIntegrityCheck()
            try dbQueue.close()
            let lost = acknowledged.subtracting(stored).sorted()
            #expect(lost.isEmpty, "restart \(restart): acknowledged commits lost: \(lost.prefix(20)); \(child.transcript.suffix(500))")
            #expect(integrity == ["ok"], "restart \(restart): \(integrity)")
            #expect(cipherFailures.isEmpty, "restart \(restart): \(cipherFailures)")
        }
        #expect(acknowledged.count >= Self.restarts, "each child should have acknowledged a commit")
    }
}
