import Foundation
import Testing
@testable import GRDBCipher

/// The passphrase must never reach an error, a trace, a description or a log.
@Suite struct SecrecyTests {
    static let passphrase = "hunter2-never-print-me"

    @Test func theConfigurationNeverShowsThePassphrase() {
        let config = keyed(Self.passphrase)
        var dumped = ""
        dump(config, to: &dumped)
        for text in [String(describing: config), String(reflecting: config), dumped, "\(config)"] {
            #expect(!text.contains(Self.passphrase), "leaked in: \(text)")
        }
        #expect(String(describing: config).contains("<redacted>"))
    }

    @Test func tracesNeverShowThePassphrase() throws {
        let dir = try TemporaryDirectory()
        let traced = LockedValue<[String]>([])
        var config = keyed(Self.passphrase)
        config.prepareDatabase { db in
            db.trace(options: [.statement, .profile]) { event in
                traced.withLock { $0.append("\(event)") }
                if case .statement(let statement) = event {
                    traced.withLock { $0.append(statement.expandedSQL) }
                }
            }
            try db.usePassphrase(Self.passphrase)
        }
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        try dbQueue.changePassphrase(Self.passphrase + "-new")
        // A user who keys by hand is redacted too.
        try dbQueue.inDatabase { db in
            try db.execute(sql: "PRAGMA key = '\(Self.passphrase)'")
        }
        let lines = traced.withLock { $0 }
        #expect(lines.contains { $0.contains("CREATE TABLE t") })
        for line in lines {
            #expect(!line.contains(Self.passphrase), "leaked in trace: \(line)")
        }
    }

    @Test func errorsNeverShowThePassphrase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        var config = keyed(Self.passphrase)
        config.publicStatementArguments = true
        let error = #expect(throws: DatabaseError.self) {
            _ = try DatabaseQueue(path: path, configuration: config)
        }
        let texts = [error.map { "\($0)" }, error.map(\.expandedDescription), error?.message, error?.sql]
        for text in texts.compactMap({ $0 }) {
            #expect(!text.contains(Self.passphrase), "leaked in error: \(text)")
        }

        // A failing statement that carries a key is redacted from the error.
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("right"))
        let attachError = #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db in
                try db.execute(sql: "ATTACH DATABASE '/no/such/dir/x.db' AS other KEY '\(Self.passphrase)'")
            }
        }
        #expect(attachError.map { "\($0)" }?.contains(Self.passphrase) == false)
        #expect(attachError?.sql?.contains(Self.passphrase) == false)
    }
}
