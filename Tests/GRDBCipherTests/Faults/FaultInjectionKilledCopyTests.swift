import Foundation
import Testing
@testable import GRDBCipher

/// kill -9 of a process that exports or backs up an encrypted database, at
/// random points of the copy. The destination must hold either what it held
/// before (nothing, or its old content) or the whole copy, readable with its
/// key; the source must stay intact.
@Suite(.serialized) struct FaultInjectionKilledCopyTests {
    static let rows = 8_000
    static let oldRows = 10
    static let kdfIterations = FaultFixture.cheapKDFIterations
    static var kills: Int { max(12, FaultFixture.iterations / 4) }

    private func makeFiles(in dir: TemporaryDirectory) throws -> (source: String, oldCopy: String) {
        try FaultFixture.makeCopyFiles(in: dir, rows: Self.rows, oldRows: Self.oldRows, kdfIterations: Self.kdfIterations)
    }

    /// Runs the child to the end once, checks it succeeded, and returns how
    /// long the copy took once the databases were open.
    private func timeCopy(_ arguments: [String]) throws -> TimeInterval {
        let child = try ChildProcess(arguments)
        try #require(child.waitForLine(prefix: "READY") != nil, "\(child.transcript)")
        let start = Date()
        let done = child.waitForLine(prefix: "DONE")
        let duration = Date().timeIntervalSince(start)
        #expect(child.waitUntilExit() == 0, "\(child.transcript)")
        try #require(done != nil, "the copy must succeed when nothing kills it: \(child.transcript)")
        return duration
    }

    /// Starts the child, kills it at a random point of a copy that takes
    /// about `duration`, and returns whether it had acknowledged the copy.
    private func killCopy(_ arguments: [String], duration: TimeInterval) throws -> (finished: Bool, transcript: String) {
        let child = try ChildProcess(arguments)
        try #require(child.waitForLine(prefix: "READY") != nil, "\(child.transcript)")
        Thread.sleep(forTimeInterval: .random(in: 0...(duration * 1.2)))
        child.kill9()
        return (child.output.contains("DONE"), child.transcript)
    }

    private func expectSourceIntact(_ source: String, _ context: String) {
        let view = KeyView.of(source, passphrase: "source key", kdfIterations: Self.kdfIterations)
        #expect(view == .intact(rows: Self.rows), "the source: \(view); \(context)")
    }

    /// Expects the destination to hold its old content or the whole copy, not both, not neither.
    private func expectOldContentOrCopy(_ destination: String, finished: Bool, _ context: String) {
        let copy = KeyView.of(destination, passphrase: "copy key", kdfIterations: Self.kdfIterations)
        let old = KeyView.of(destination, passphrase: "copy key", kdfIterations: Self.kdfIterations, table: "old")
        let isCopy = copy == .intact(rows: Self.rows)
        let isOld = old == .intact(rows: Self.oldRows)
        #expect(isCopy != isOld, "the destination must hold its old content or the copy: copy \(copy), old \(old); \(context)")
        if finished {
            #expect(isCopy, "an acknowledged copy must be in place: \(copy); \(context)")
        }
    }

    /// `kind`: "new" (no file before), "replacing" (an old copy is
    /// replaced), or "plaintext" (a decrypted copy, no file before).
    @Test(arguments: ["new", "replacing", "plaintext"])
    func killingAnExportLeavesTheDestinationWholeOrAsItWas(kind: String) throws {
        let dir = try TemporaryDirectory()
        let (source, oldCopy) = try makeFiles(in: dir)
        let destination = dir.path("copy.sqlite")
        let replacing = kind == "replacing"
        let copyKey: String? = kind == "plaintext" ? nil : "copy key"
        let arguments = ["export", "--kind", "pool", "--path", source, "--key", "source key", "--dest", destination]
            + (copyKey.map { ["--dest-key", $0] } ?? ["--plaintext"])
            + (replacing ? ["--replace"] : [])
            + FaultFixture.kdfArguments(Self.kdfIterations)
        func prepareDestination() throws {
            FaultFixture.removeDatabase(destination)
            if replacing { try FaultFixture.copyDatabase(oldCopy, to: destination) }
        }
        func expectAbsentOrWhole(finished: Bool, _ context: String) {
            let copy = KeyView.of(destination, passphrase: copyKey, kdfIterations: Self.kdfIterations)
            #expect(
                copy == .intact(rows: Self.rows) || (copy == .absent && !FaultFixture.databaseExists(destination)),
                "the destination must be absent or the whole copy: \(copy); \(context)")
            if finished {
                #expect(copy == .intact(rows: Self.rows), "an acknowledged export must be in place: \(context)")
            }
        }

        try prepareDestination()
        let duration = try timeCopy(arguments)
        if replacing {
            expectOldContentOrCopy(destination, finished: true, "an export that ran to the end")
        } else {
            expectAbsentOrWhole(finished: true, "an export that ran to the end")
        }

        var leftovers: [String] = []
        for kill in 0..<Self.kills {
            try prepareDestination()
            let (finished, transcript) = try killCopy(arguments, duration: duration)
            let context = "kill \(kill) within \(duration) s: \(transcript)"
            expectSourceIntact(source, context)
            if replacing {
                expectOldContentOrCopy(destination, finished: finished, context)
            } else {
                expectAbsentOrWhole(finished: finished, context)
            }
            // A killed export cannot remove its temporary files: garbage, never
            // the destination. The next export removes them.
            leftovers += FaultFixture.files(in: dir.url.path, startingWith: ".copy.sqlite.export-")
        }
        try prepareDestination()
        _ = try timeCopy(arguments)
        let remaining = FaultFixture.files(in: dir.url.path, startingWith: ".copy.sqlite.export-")
        #expect(remaining.isEmpty, "the next export must remove what killed exports left: \(remaining)")
        print("export (\(kind)): \(Self.kills) kills left \(Set(leftovers).count) temporary files, removed by the next export")
    }

    @Test func killingABackupLeavesTheOldContentOrTheCopy() throws {
        let dir = try TemporaryDirectory()
        let (source, oldCopy) = try makeFiles(in: dir)
        let destination = dir.path("copy.sqlite")
        // Several steps, so that kills land between them too.
        let arguments = [
            "backup", "--kind", "pool", "--path", source, "--key", "source key",
            "--dest", destination, "--dest-key", "copy key", "--pages-per-step", "32",
        ] + FaultFixture.kdfArguments(Self.kdfIterations)

        try FaultFixture.copyDatabase(oldCopy, to: destination)
        let duration = try timeCopy(arguments)
        expectOldContentOrCopy(destination, finished: true, "a backup that ran to the end")

        for kill in 0..<Self.kills {
            try FaultFixture.copyDatabase(oldCopy, to: destination)
            let (finished, transcript) = try killCopy(arguments, duration: duration)
            let context = "kill \(kill) within \(duration) s: \(transcript)"
            expectSourceIntact(source, context)
            expectOldContentOrCopy(destination, finished: finished, context)
        }
    }
}
