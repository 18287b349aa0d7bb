import Foundation
import Testing
@testable import GRDBCipher

/// `DatabaseFile.upgradeToSQLCipher4` (the SQLCipher 3 → 4 migration) on a
/// full disk and killed at random points. The file must always open, with
/// its one key, either with SQLCipher 3's settings (the upgrade threw or was
/// cut short) or with SQLCipher 4's (it returned, or was killed after the
/// upgraded copy was in place), with every row; never with neither.
@Suite(.serialized) struct FaultInjectionUpgradeTests {
    static let rows = 6_000
    static let key = "upgrade key"
    static var kills: Int { max(12, FaultFixture.iterations / 4) }

    /// What the file is, judged by opening it with each version's settings.
    private enum Version: Equatable {
        case sqlcipher3
        case sqlcipher4
    }

    /// Which version's settings read every row; records an issue, and
    /// returns nil, when neither or both do.
    private func version(of path: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) -> Version? {
        let v3 = KeyView.of(path, passphrase: Self.key, compatibility: 3)
        let v4 = KeyView.of(path, passphrase: Self.key)
        switch (v3 == .intact(rows: Self.rows), v4 == .intact(rows: Self.rows)) {
        case (true, false): return .sqlcipher3
        case (false, true): return .sqlcipher4
        default:
            Issue.record(
                "exactly one version's settings must read all \(Self.rows) rows: SQLCipher 3: \(v3), SQLCipher 4: \(v4); \(context)",
                sourceLocation: sourceLocation)
            return nil
        }
    }

    /// A file written with SQLCipher 3's defaults (64,000 PBKDF2-SHA1 rounds,
    /// 1 KiB pages): the upgrade tries only the defaults.
    private func makeSQLCipher3File(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("legacy.sqlite")
        try FaultFixture.makeDatabase(at: path, passphrase: Self.key, rows: Self.rows, wal: false, compatibility: 3)
        return path
    }

    private func arguments(_ path: String) -> [String] {
        ["upgrade", "--path", path, "--key", Self.key]
    }

    @Test func aFullDiskDuringAnUpgradeLeavesTheSQLCipher3File() throws {
        let dir = try TemporaryDirectory()
        let template = try makeSQLCipher3File(in: dir)
        let path = dir.path("upgraded.sqlite")
        let size = FaultFixture.fileSize(template)
        var outcomes: [Int: String] = [:]
        for limit in [40_000, size / 2, size - 4_096, size * 3] {
            try FaultFixture.copyDatabase(template, to: path)
            let child = try ChildProcess(arguments(path) + ["--fsize", "\(limit)"])
            let status = child.waitUntilExit()
            let context = "limit \(limit) (file of \(size) bytes): \(child.transcript)"
            #expect(status == 0, "\(context)")
            let lines = child.output
            guard lines.count == 2, lines[0] == "READY" else {
                Issue.record("unexpected output: \(context)")
                continue
            }
            outcomes[limit] = lines[1]
            let found = version(of: path, context)
            if lines[1].hasPrefix("DONE") {
                #expect(lines[1] == "DONE upgraded(fromCompatibility: 3)", "\(context)")
                #expect(found == .sqlcipher4, "an upgrade that returned must be in place; \(context)")
            } else {
                #expect(lines[1].hasPrefix("FAILED "), "\(context)")
                #expect(found == .sqlcipher3, "an upgrade that threw must leave the file as it was; \(context)")
            }
            let leftovers = FaultFixture.files(in: dir.url.path, startingWith: ".upgraded.sqlite")
            #expect(leftovers.isEmpty, "the upgrade must remove its temporary files: \(leftovers); \(context)")
        }
        // The limits must cover both outcomes, or the test proves nothing.
        #expect(outcomes[40_000]?.hasPrefix("FAILED") == true, "\(outcomes)")
        #expect(outcomes[size * 3]?.hasPrefix("DONE") == true, "\(outcomes)")
    }

    @Test func killingAnUpgradeLeavesOneVersionThatReadsEverything() throws {
        let dir = try TemporaryDirectory()
        let template = try makeSQLCipher3File(in: dir)
        let path = dir.path("upgraded.sqlite")

        // How long the upgrade takes once the child is ready.
        try FaultFixture.copyDatabase(template, to: path)
        let timing = try ChildProcess(arguments(path))
        try #require(timing.waitForLine(prefix: "READY") != nil, "\(timing.transcript)")
        let start = Date()
        let done = timing.waitForLine(prefix: "DONE")
        let duration = Date().timeIntervalSince(start)
        #expect(timing.waitUntilExit() == 0, "\(timing.transcript)")
        try #require(done != nil, "the upgrade must succeed when nothing kills it: \(timing.transcript)")
        #expect(version(of: path, "an upgrade that ran to the end") == .sqlcipher4)

        var found: [Version: Int] = [:]
        for kill in 0..<Self.kills {
            try FaultFixture.copyDatabase(template, to: path)
            let child = try ChildProcess(arguments(path))
            try #require(child.waitForLine(prefix: "READY") != nil, "\(child.transcript)")
            Thread.sleep(forTimeInterval: .random(in: 0...(duration * 1.2)))
            child.kill9()
            let finished = child.output.contains { $0.hasPrefix("DONE") }
            let context = "kill \(kill) within \(duration) s: \(child.transcript)"
            let version = version(of: path, context)
            if let version { found[version, default: 0] += 1 }
            if finished {
                #expect(version == .sqlcipher4, "an acknowledged upgrade must be in place; \(context)")
            }
        }
        // The next upgrade finishes the job and removes what the killed ones left.
        if version(of: path, "after the kills") == .sqlcipher3 {
            #expect(try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase(Self.key)) == .upgraded(fromCompatibility: 3))
        } else {
            #expect(try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase(Self.key)) == .alreadyCurrent)
        }
        #expect(version(of: path, "after one more upgrade") == .sqlcipher4)
        let leftovers = FaultFixture.files(in: dir.url.path, startingWith: ".upgraded.sqlite")
        #expect(leftovers.isEmpty, "the next upgrade must remove what killed ones left: \(leftovers)")
        print("upgrade: \(Self.kills) kills left \(found[.sqlcipher3] ?? 0) SQLCipher 3 files, \(found[.sqlcipher4] ?? 0) upgraded ones")
    }
}
