import Foundation
import Testing
@testable import GRDBCipher

// Foundation value types that adopt DatabaseValueConvertible with nothing to
// implement, through the defaults for ReferenceConvertible types.

/// A wrapper of `Date` that does not declare the library's own Date
/// conversions: it bridges to `NSDate`, which is DatabaseValueConvertible.
private struct Instant: ReferenceConvertible, _ObjectiveCBridgeable, DatabaseValueConvertible {
    typealias ReferenceType = NSDate
    var date: Date

    var description: String { date.description }
    var debugDescription: String { date.debugDescription }

    func _bridgeToObjectiveC() -> NSDate { date._bridgeToObjectiveC() }
    static func _forceBridgeFromObjectiveC(_ source: NSDate, result: inout Instant?) {
        result = Instant(date: source as Date)
    }
    static func _conditionallyBridgeFromObjectiveC(_ source: NSDate, result: inout Instant?) -> Bool {
        result = Instant(date: source as Date)
        return true
    }
    static func _unconditionallyBridgeFromObjectiveC(_ source: NSDate?) -> Instant {
        Instant(date: (source ?? NSDate(timeIntervalSince1970: 0)) as Date)
    }
}

@Suite("ReferenceConvertible defaults")
struct ReferenceConvertibleTests {
    @Test func valueStoresAsItsReferenceType() throws {
        let instant = Instant(date: Date(timeIntervalSince1970: 1_234_567_890.5))
        #expect(instant.databaseValue == (instant.date as NSDate).databaseValue)
        #expect(instant.databaseValue == "2009-02-13 23:31:30.500".databaseValue)
    }

    @Test func valueDecodesThroughItsReferenceType() throws {
        try inMemoryDatabase { db throws in
            let instant = try Instant.fetchOne(db, sql: "SELECT '2009-02-13 23:31:30.500'")
            #expect(instant?.date == Date(timeIntervalSince1970: 1_234_567_890.5))
            #expect(Instant.fromDatabaseValue("not a date".databaseValue) == nil)
        }
    }
}

extension Instant: Hashable { }
