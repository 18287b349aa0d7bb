import Foundation
import Testing
@testable import GRDBCipher

/// Passphrase changes under real faults, for a queue with a rollback journal
/// and a pool in WAL mode, its WAL checkpointed or not. Each rotation runs in
/// a child process; the faults are a file-size limit (`RLIMIT_FSIZE`, a full
/// disk) at fractions of the database's size, and a lock held by another
/// process. After the call, after one more write through the same queue or
/// pool (with room on the disk again), and after closing it, this process
/// opens the file with both keys: exactly one reads every row, every time,
/// and it is the one the call announced. (kill -9 at random points is in
/// `FaultInjectionKilledRotationTests`.)
@Suite(.serialized) struct FaultInjectionRotationMatrixTests {
    static let rows = 4_000
    static let kdfIterations = FaultFixture.cheapKDFIterations

    /// A database and how the child opens it.
    struct Setup: CustomStringConvertible {
        /// "queue" or "pool".
        let kind: String
        let wal: Bool
        /// Rows the child commits before the rotation, left in the WAL.
        let rowsInWAL: Int

        var description: String {
            kind + (wal ? (rowsInWAL > 0 ? " (WAL not checkpointed)" : " (WAL checkpointed)") : " (rollback journal)")
        }

        static let all = [
            Setup(kind: "queue", wal: false, rowsInWAL: 0),
            Setup(kind: "pool", wal: true, rowsInWAL: 0),
            Setup(kind: "pool", wal: true, rowsInWAL: 300),
        ]
    }

    enum Fault: CustomStringConvertible {
        /// A file-size limit at this fraction of the database's size.
        case fileSizeLimit(Double)
        /// Another process holds a lock: "shared" (a reader's transaction)
        /// or "immediate" (a writer's).
        case lock(String)

        var description: String {
            switch self {
            case let .fileSizeLimit(fraction): "a file-size limit at \(Int(fraction * 100)) % of the file"
            case let .lock(mode): "a \(mode) lock held by another process"
            }
        }

        static let all: [Fault] = [0, 0.05, 0.5, 0.95, 1, 1.5].map { .fileSizeLimit($0) } + [.lock("shared"), .lock("immediate")]
    }

    /// Runs one cell of the matrix and returns whether the rotation was
    /// announced as a success (nil if the child misbehaved).
    @discardableResult
    private func run(
        _ setup: Setup, _ fault: Fault, template: String, in dir: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool?
    {
        let path = dir.path("\(setup.kind)-\(UUID().uuidString).sqlite")
        try FaultFixture.copyDatabase(template, to: path)
        let size = FaultFixture.fileSize(path)
        var arguments = ["rotate", "--kind", setup.kind, "--path", path, "--old", "old", "--new", "new"]
            + FaultFixture.kdfArguments(Self.kdfIterations)
        if setup.rowsInWAL > 0 { arguments += ["--prewrite", "\(setup.rowsInWAL)"] }
        if case let .fileSizeLimit(fraction) = fault {
            arguments += ["--fsize", "\(Int(Double(size) * fraction))"]
        }
        let child = try ChildProcess(arguments)
        let context = { "\(setup), \(fault), file \(size) bytes: \(child.transcript)" }
        try #require(child.waitForLine(prefix: "READY") != nil, "\(context())", sourceLocation: sourceLocation)
        var holder: ChildProcess?
        if case let .lock(mode) = fault {
            let lockHolder = try ChildProcess(
                ["hold-lock", "--path", path, "--key", "old", "--mode", mode, "--journal", setup.wal ? "wal" : "delete"]
                    + FaultFixture.kdfArguments(Self.kdfIterations))
            try #require(
                lockHolder.waitForLine(prefix: "LOCKED") != nil, "the lock holder: \(lockHolder.transcript)",
                sourceLocation: sourceLocation)
            holder = lockHolder
        }
        child.send("rotate")
        guard let outcome = child.waitForLine(prefixes: ["ROTATED", "FAILED"]) else {
            Issue.record("no outcome: \(context())", sourceLocation: sourceLocation)
            return nil
        }
        // A reader that holds WAL frames keeps the cipher check from
        // reading the file alone: the lock goes before the first check.
        if let holder {
            holder.closeStdin()
            #expect(holder.waitUntilExit() == 0, "the lock holder: \(holder.transcript)", sourceLocation: sourceLocation)
        }
        let rotated = outcome == "ROTATED"
        var rows = Self.rows + setup.rowsInWAL
        func expectOneKey(_ step: String) {
            expectOneKeyReadsEverything(
                path, succeeded: rotated, old: "old", new: "new", rows: rows, kdfIterations: Self.kdfIterations,
                "\(step); \(context())", sourceLocation: sourceLocation)
        }
        expectOneKey("after the call")

        child.send("write")
        guard let write = child.waitForLine(prefix: "WR") else {
            Issue.record("no write: \(context())", sourceLocation: sourceLocation)
            return rotated
        }
        // The write is there if, and only if, it was acknowledged; it must
        // be, now that the disk has room and no lock is held.
        #expect(write == "WROTE", "the write after the rotation: \(context())", sourceLocation: sourceLocation)
        if write == "WROTE" { rows += 1 }
        expectOneKey("after one more write")

        child.send("close")
        #expect(child.waitUntilExit() == 0, "\(context())", sourceLocation: sourceLocation)
        #expect(child.output.last == "CLOSED", "\(context())", sourceLocation: sourceLocation)
        expectOneKey("after closing")
        return rotated
    }

    private func makeTemplate(_ setup: Setup, in dir: TemporaryDirectory) throws -> String {
        let template = dir.path("template.sqlite")
        try FaultFixture.makeDatabase(
            at: template, passphrase: "old", rows: Self.rows, wal: setup.wal, kdfIterations: Self.kdfIterations,
            payloadLength: 200)
        return template
    }

    @Test(arguments: Setup.all)
    func everyFaultLeavesExactlyTheAnnouncedKey(_ setup: Setup) throws {
        let dir = try TemporaryDirectory()
        let template = try makeTemplate(setup, in: dir)
        for fault in Fault.all {
            let rotated = try run(setup, fault, template: template, in: dir)
            switch fault {
            case .fileSizeLimit(0), .fileSizeLimit(0.05), .fileSizeLimit(0.5):
                #expect(rotated == false, "\(setup), \(fault): a rotation cannot fit")
            case .fileSizeLimit(1.5):
                #expect(rotated == true, "\(setup), \(fault): a rotation with room to spare must succeed")
            case .lock("immediate"):
                #expect(rotated == false, "\(setup), \(fault): the rotation cannot take the write lock")
            case .lock("shared") where !setup.wal:
                #expect(rotated == false, "\(setup), \(fault): a rollback journal cannot commit under a reader")
            case .lock("shared"):
                #expect(rotated == true, "\(setup), \(fault): a WAL reader does not stop a writer")
            default:
                break
            }
        }
    }

    /// Issue 26's reproduction, as reported: a pool that wrote 20,000 rows of
    /// 200 random bytes and truncated its WAL, a 1 MiB limit (the file is
    /// about 4.4 MB). The call used to return while nothing changed, and the
    /// next write made the file unreadable with either key.
    @Test func aPoolRotationUnderALimitBelowTheFileSizeThrowsAndTheOldKeyKeepsEverything() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try FaultFixture.makeDatabase(at: path, passphrase: "old", rows: 0, wal: true)
        let child = try ChildProcess([
            "rotate", "--kind", "pool", "--path", path, "--old", "old", "--new", "new",
            "--prewrite", "20000", "--checkpoint", "--fsize", "\(1 << 20)",
        ])
        #expect(child.waitForLine(prefix: "READY") != nil, "\(child.transcript)")
        child.send("rotate")
        let outcome = child.waitForLine(prefixes: ["ROTATED", "FAILED"])
        #expect(outcome?.hasPrefix("FAILED") == true, "\(child.transcript)")
        expectOneKeyReadsEverything(path, succeeded: false, old: "old", new: "new", rows: 20_000, "\(child.transcript)")
        child.send("write")
        #expect(child.waitForLine(prefix: "WR") == "WROTE", "\(child.transcript)")
        expectOneKeyReadsEverything(path, succeeded: false, old: "old", new: "new", rows: 20_001, "\(child.transcript)")
        child.send("close")
        #expect(child.waitUntilExit() == 0, "\(child.transcript)")
        expectOneKeyReadsEverything(path, succeeded: false, old: "old", new: "new", rows: 20_001, "\(child.transcript)")
    }
}
