import Foundation
import Testing
@testable import GRDBCipher

/// A passphrase change on a full disk, simulated in a child process with
/// `RLIMIT_FSIZE`: writes past the limit fail with EFBIG. SQLCipher's
/// `sqlite3_rekey` reports such failures as success; the file must still end
/// up readable with exactly one key, the one the outcome announces, and the
/// write the child makes after the failure must not mix the keys.
@Suite(.serialized) struct FaultInjectionFullDiskRotationTests {
    static let rows = 20_000

    /// One rotation in a child under `limit`, checked against the file.
    /// Returns whether the child reported a rotation.
    private func rotate(
        kind: String, template: String, in dir: TemporaryDirectory, limit: Int,
        sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool?
    {
        let path = dir.path("\(kind)-\(limit).sqlite")
        try FaultFixture.copyDatabase(template, to: path)
        let child = try ChildProcess([
            "rotate", "--kind", kind, "--path", path, "--old", "old", "--new", "new", "--fsize", "\(limit)",
        ])
        let status = child.waitUntilExit()
        let lines = child.output
        #expect(status == 0, "limit \(limit): \(child.transcript)", sourceLocation: sourceLocation)
        guard lines.count == 2,
              lines[0] == "ROTATED" || lines[0].hasPrefix("FAILED "),
              lines[1] == "WROTE" || lines[1].hasPrefix("WRITE-FAILED ")
        else {
            Issue.record("limit \(limit): unexpected output: \(child.transcript)", sourceLocation: sourceLocation)
            return nil
        }
        let rotated = lines[0] == "ROTATED"
        // The write after the rotation is there if, and only if, it was acknowledged.
        let rows = Self.rows + (lines[1] == "WROTE" ? 1 : 0)
        expectOneKeyReadsEverything(
            path, succeeded: rotated, old: "old", new: "new", rows: rows,
            "\(kind), limit \(limit) bytes, file \(FaultFixture.fileSize(template)) bytes: \(child.transcript)",
            sourceLocation: sourceLocation)
        return rotated
    }

    @Test(arguments: ["pool", "queue"])
    func aFullDiskDuringAWALRotationLeavesOneKeyThatReadsEverything(kind: String) throws {
        let dir = try TemporaryDirectory()
        let template = dir.path("template.sqlite")
        try FaultFixture.makeDatabase(at: template, passphrase: "old", rows: Self.rows, wal: true)
        let size = FaultFixture.fileSize(template)
        let pages = size / 4096
        // The rotation writes every page to the WAL: 32 bytes of header,
        // then 24 bytes of header and 4096 of page per frame, the last frame
        // being the commit.
        let walSize = 32 + pages * (24 + 4096)
        let limits = [
            50_000,                   // fails at once
            size / 2,                 // fails halfway through the WAL
            walSize - 2_048,          // fails writing the commit frame
            walSize + 262_144,        // succeeds, with room for the write after it
            size + 2_000_000,         // succeeds
        ]
        var outcomes: [Int: Bool] = [:]
        for limit in limits {
            outcomes[limit] = try rotate(kind: kind, template: template, in: dir, limit: limit)
        }
        #expect(outcomes[50_000] == false, "a rotation cannot fit in 50 KB")
        #expect(outcomes[size + 2_000_000] == true, "a rotation with 2 MB to spare must succeed")
        #expect(outcomes[walSize - 2_048] == false, "a WAL without room for its commit frame cannot commit")
    }

    @Test func aFullDiskDuringARollbackJournalRotationLeavesOneKeyThatReadsEverything() throws {
        let dir = try TemporaryDirectory()
        let template = dir.path("template.sqlite")
        try FaultFixture.makeDatabase(at: template, passphrase: "old", rows: Self.rows, wal: false)
        let size = FaultFixture.fileSize(template)
        let pages = size / 4096
        // The journal holds a header of at least 512 bytes, then each
        // original page with its number and checksum.
        let journalSize = 512 + pages * (4096 + 8)
        let limits = [
            50_000,                   // fails at once
            size / 2,                 // fails halfway through the journal
            journalSize - 2_048,      // fails on the last journal records
            size + 2_000_000,         // succeeds
        ]
        var outcomes: [Int: Bool] = [:]
        for limit in limits {
            outcomes[limit] = try rotate(kind: "queue", template: template, in: dir, limit: limit)
        }
        #expect(outcomes[50_000] == false, "a rotation cannot fit in 50 KB")
        #expect(outcomes[size + 2_000_000] == true, "a rotation with 2 MB to spare must succeed")
    }
}
