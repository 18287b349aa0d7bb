import Foundation
import Testing
@testable import GRDBCipher

/// SQLCipher's log is process-wide: these tests run one after the other, and
/// leave it discarded.
@Suite(.serialized) struct CipherLogTests {
    @Test func sqlcipherLogsCanBeRoutedToAFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let logPath = dir.path("cipher.log")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        var config = keyed("wrong")
        config.cipherLogDestination = .file(logPath)
        #expect(throws: DatabaseError.self) {
            _ = try DatabaseQueue(path: path, configuration: config)
        }
        var quiet = keyed("wrong")
        quiet.cipherLogDestination = .discarded
        _ = try? DatabaseQueue(path: path, configuration: quiet)

        let log = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(log.contains("ERROR"))
        #expect(!log.contains("wrong"), "the log shows the key")
    }

    @Test func grdbLoggingFunctionsSetLevelAndTarget() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("right"))
        // SQLCipher buffers its file: moving the log elsewhere flushes it.
        func logOfAWrongKey(disabled: Bool) throws -> String {
            let logPath = dir.path("cipher-\(UUID().uuidString).log")
            try dbQueue.inDatabase { db in
                try db.enableCipherLogging(logLevel: .error, target: .file(logPath))
                if disabled { try db.disableCipherLogging() }
            }
            _ = try? DatabaseQueue(path: path, configuration: keyed("wrong"))
            try dbQueue.inDatabase { db in try db.enableCipherLogging(logLevel: .warn, target: .file("/dev/null")) }
            return try String(contentsOfFile: logPath, encoding: .utf8)
        }
        #expect(try logOfAWrongKey(disabled: false).contains("hmac check failed"))
        #expect(try logOfAWrongKey(disabled: true).isEmpty)

        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db in try db.enableCipherLogging(logLevel: .error, target: .file("/no/such/dir/log")) }
        }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
        try dbQueue.inDatabase { db in
            try db.enableCipherLogging(logLevel: .warn, target: .file("/dev/null"))
        }
    }

    /// `enableCipherLogging` and `Configuration.cipherLogDestination` set the
    /// same thing: the last one applied wins, and a connection that opens
    /// with a destination applies it again after `enableCipherLogging`.
    @Test func aConfiguredDestinationWinsAgainAfterEnableCipherLogging() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let configuredLog = dir.path("configured.log")
        let enabledLog = dir.path("enabled.log")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        var config = keyed("right")
        config.cipherLogDestination = .file(configuredLog)
        let first = try DatabaseQueue(path: path, configuration: config)
        try first.inDatabase { db in try db.enableCipherLogging(logLevel: .error, target: .file(enabledLog)) }
        _ = try? DatabaseQueue(path: path, configuration: keyed("wrong"))

        _ = try DatabaseQueue(path: path, configuration: config)
        _ = try? DatabaseQueue(path: path, configuration: keyed("wrong"))
        // Moving the log elsewhere flushes SQLCipher's buffer.
        try first.inDatabase { db in try db.enableCipherLogging(logLevel: .warn, target: .file("/dev/null")) }

        let enabled = try String(contentsOfFile: enabledLog, encoding: .utf8)
        let configured = (try? String(contentsOfFile: configuredLog, encoding: .utf8)) ?? ""
        #expect(enabled.contains("hmac check failed"), "the first wrong key logs where enableCipherLogging said")
        #expect(configured.contains("hmac check failed"), "the second logs where the configuration says")
        #expect(!enabled.contains("right") && !configured.contains("right"), "the log shows the key")
    }
}
