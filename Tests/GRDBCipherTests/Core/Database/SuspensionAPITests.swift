import Foundation
import Testing
@testable import GRDBCipher

@Suite("Suspension notifications")
struct SuspensionAPITests {
    @Test func flagIsOffByDefault() {
        #expect(Configuration().observesSuspensionNotifications == false)
    }

    @Test func postingTheNotificationsChangesNothing() throws {
        var config = Configuration()
        config.observesSuspensionNotifications = true
        let dbQueue = try DatabaseQueue(configuration: config)
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
        #expect(Database.suspendNotification != Database.resumeNotification)
    }
}
