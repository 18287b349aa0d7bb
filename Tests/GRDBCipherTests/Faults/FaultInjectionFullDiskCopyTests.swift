import Foundation
import Testing
@testable import GRDBCipher

/// An export or a backup on a full disk, simulated in a child process with
/// `RLIMIT_FSIZE`. A copy that does not fit must throw and leave the
/// destination as it was (absent for an export, its old content for a
/// backup); a copy that fits must be whole. The source is never touched.
@Suite(.serialized) struct FaultInjectionFullDiskCopyTests {
    static let rows = 8_000
    static let oldRows = 10
    static let kdfIterations = FaultFixture.cheapKDFIterations

    /// Runs the child under `limit`; returns whether it reported the copy as done.
    private func copy(_ arguments: [String], limit: Int, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (done: Bool, transcript: String)?
    {
        let child = try ChildProcess(arguments + ["--fsize", "\(limit)"])
        let status = child.waitUntilExit()
        let lines = child.output
        #expect(status == 0, "limit \(limit): \(child.transcript)", sourceLocation: sourceLocation)
        guard lines.count == 2, lines[0] == "READY", lines[1] == "DONE" || lines[1].hasPrefix("FAILED ") else {
            Issue.record("limit \(limit): unexpected output: \(child.transcript)", sourceLocation: sourceLocation)
            return nil
        }
        return (lines[1] == "DONE", "limit \(limit): \(child.transcript)")
    }

    private func expectSourceIntact(_ source: String, _ context: String) {
        let view = KeyView.of(source, passphrase: "source key", kdfIterations: Self.kdfIterations)
        #expect(view == .intact(rows: Self.rows), "the source: \(view); \(context)")
    }

    @Test(arguments: [false, true])
    func aFullDiskDuringAnExportLeavesNoDestination(plaintext: Bool) throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.sqlite")
        try FaultFixture.makeDatabase(
            at: source, passphrase: "source key", rows: Self.rows, wal: true, kdfIterations: Self.kdfIterations)
        let destination = dir.path("copy.sqlite")
        let size = FaultFixture.fileSize(source)
        let arguments = ["export", "--kind", "pool", "--path", source, "--key", "source key", "--dest", destination]
            + (plaintext ? ["--plaintext"] : ["--dest-key", "copy key"])
            + FaultFixture.kdfArguments(Self.kdfIterations)
        let limits = [50_000, size / 2, size - 8_192, size + 2_000_000]
        var outcomes: [Int: Bool] = [:]
        for limit in limits {
            FaultFixture.removeDatabase(destination)
            guard let (done, context) = try copy(arguments, limit: limit) else { continue }
            outcomes[limit] = done
            expectSourceIntact(source, context)
            if done {
                let view = KeyView.of(
                    destination, passphrase: plaintext ? nil : "copy key", kdfIterations: Self.kdfIterations)
                #expect(view == .intact(rows: Self.rows), "the copy: \(view); \(context)")
            } else {
                #expect(!FaultFixture.databaseExists(destination), "a failed export must leave no destination; \(context)")
                let leftovers = FaultFixture.files(in: dir.url.path, startingWith: ".copy.sqlite")
                #expect(leftovers.isEmpty, "a failed export must remove its temporary files: \(leftovers); \(context)")
            }
        }
        #expect(outcomes[50_000] == false, "an export cannot fit in 50 KB")
        #expect(outcomes[size + 2_000_000] == true, "an export with 2 MB to spare must succeed")
    }

    @Test func aFullDiskDuringABackupLeavesTheDestinationAsItWas() throws {
        let dir = try TemporaryDirectory()
        let (source, oldCopy) = try FaultFixture.makeCopyFiles(
            in: dir, rows: Self.rows, oldRows: Self.oldRows, kdfIterations: Self.kdfIterations)
        let destination = dir.path("copy.sqlite")
        let size = FaultFixture.fileSize(source)
        let arguments = [
            "backup", "--kind", "pool", "--path", source, "--key", "source key",
            "--dest", destination, "--dest-key", "copy key",
        ] + FaultFixture.kdfArguments(Self.kdfIterations)
        let limits = [50_000, size / 2, size - 8_192, size + 2_000_000]
        var outcomes: [Int: Bool] = [:]
        for limit in limits {
            try FaultFixture.copyDatabase(oldCopy, to: destination)
            let before = try fileBytes(destination)
            guard let (done, context) = try copy(arguments, limit: limit) else { continue }
            outcomes[limit] = done
            expectSourceIntact(source, context)
            if done {
                let view = KeyView.of(destination, passphrase: "copy key", kdfIterations: Self.kdfIterations)
                #expect(view == .intact(rows: Self.rows), "the copy: \(view); \(context)")
            } else {
                // SQLCipher gives each page written a fresh IV, so the pages the
                // rollback restores differ in bytes: compare the size and the
                // salt (the first 16 bytes), then the content.
                let after = try fileBytes(destination)
                #expect(
                    after.count == before.count && after.prefix(16) == before.prefix(16),
                    "a failed backup must leave the destination's size and salt: \(before.count) bytes before, \(after.count) after; \(context)")
                let view = KeyView.of(
                    destination, passphrase: "copy key", kdfIterations: Self.kdfIterations, table: "old")
                #expect(view == .intact(rows: Self.oldRows), "the old content: \(view); \(context)")
            }
        }
        #expect(outcomes[50_000] == false, "a backup cannot fit in 50 KB")
        #expect(outcomes[size + 2_000_000] == true, "a backup with 2 MB to spare must succeed")
    }
}
