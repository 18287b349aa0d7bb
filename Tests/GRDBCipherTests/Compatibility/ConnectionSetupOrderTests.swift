import Foundation
import Testing
@testable import GRDBCipher

/// The statements a new connection runs, in GRDB's order: foreign keys are
/// turned on before the preparation functions (after the key, which comes
/// first), so that a trace installed in `prepareDatabase` does not see it
/// and a preparation function may change it.
@Suite struct ConnectionSetupOrderTests {
    private func configuration(_ prepare: @escaping @Sendable (Database) throws -> Void) -> Configuration {
        var config = keyed("setup-order-passphrase")
        config.prepareDatabase(prepare)
        return config
    }

    @Test func foreignKeysAreOnBeforeThePreparationFunctions() throws {
        let dir = try TemporaryDirectory()
        let seen = LockedValue<[String]>([])
        let foreignKeys = LockedValue<Bool?>(nil)
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: configuration { db in
            foreignKeys.withLock { $0 = try? Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }
            db.trace { event in seen.withLock { $0.append(event.description) } }
        })
        try dbQueue.read { _ in }
        #expect(foreignKeys.withLock { $0 } == true)
        #expect(!seen.withLock { $0 }.contains { $0.contains("foreign_keys") }, "\(seen.withLock { $0 })")
    }

    @Test func aPreparationFunctionCanTurnForeignKeysOff() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: configuration { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
        })
        #expect(try dbQueue.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == false)
    }

    @Test func disabledForeignKeysRunNoPragma() throws {
        let dir = try TemporaryDirectory()
        let seen = LockedValue<[String]>([])
        var config = keyed("setup-order-passphrase")
        config.foreignKeysEnabled = false
        config.prepareDatabase { db in
            db.trace { event in seen.withLock { $0.append(event.description) } }
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
        // What the preparation function chose stays: the library runs no `PRAGMA foreign_keys = OFF` after it.
        #expect(try dbQueue.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)
        #expect(seen.withLock { $0 }.filter { $0.hasPrefix("PRAGMA foreign_keys =") } == ["PRAGMA foreign_keys = ON"])
    }
}
