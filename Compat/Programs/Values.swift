#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// Prints how the first column of `sql` converts to `type`, by fetchOne and by row decoding.
func convert<T: DatabaseValueConvertible>(_ db: Database, _ sql: String, _ type: T.Type) {
    quietly {
        step("\(sql) as \(T.self) fetchOne") { try T.fetchOne(db, sql: sql) }
        step("\(sql) as \(T.self) decode") { try firstRow(db, sql).decode(T.self, atIndex: 0) }
        step("\(sql) as \(T.self)? decode") { try firstRow(db, sql).decode(T?.self, atIndex: 0) }
        step("\(sql) as \(T.self) fromDatabaseValue") {
            try DatabaseValue.fetchOne(db, sql: sql).map { T.fromDatabaseValue($0) }
        }
    }
}

/// The first row of `sql`; a missing row is an error of the harness, printed.
func firstRow(_ db: Database, _ sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row {
    guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else { throw HarnessError.noRow(sql) }
    return row
}

/// Prints what a value stores: its database value, and what SQLite's typeof says.
func store<T: DatabaseValueConvertible>(_ db: Database, _ label: String, _ value: T) {
    quietly {
        step("store \(label)") {
            let row = try firstRow(db, "SELECT ? AS v, typeof(?) AS t", arguments: [value, value])
            return "\(row["v"] as DatabaseValue) \(row["t"] as String) databaseValue=\(value.databaseValue)"
        }
    }
}

enum Color: String, DatabaseValueConvertible { case red, blue }
enum Level: Int, DatabaseValueConvertible { case low = 1, high = 2 }

let valuePrograms: [Program] = [
    Program("values-integers") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            for sql in ["SELECT 1", "SELECT 127", "SELECT 128", "SELECT -129", "SELECT 9223372036854775807",
                        "SELECT 1.5", "SELECT 1e20", "SELECT '42'", "SELECT '42abc'", "SELECT ' 42 '",
                        "SELECT x'2A'", "SELECT NULL", "SELECT 'abc'"] {
                convert(db, sql, Int.self)
                convert(db, sql, Int8.self)
            }
            for sql in ["SELECT 255", "SELECT 256", "SELECT -1", "SELECT 4294967296"] {
                convert(db, sql, UInt8.self)
                convert(db, sql, UInt32.self)
                convert(db, sql, UInt64.self)
                convert(db, sql, Int32.self)
            }
            store(db, "UInt64 big", UInt64(Int64.max))
            store(db, "Int64.min", Int64.min)
            store(db, "UInt", UInt(7))
            store(db, "Int16", Int16(-3))
        }
    },
    Program("values-uint64-overflow") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            store(db, "UInt64.max", UInt64.max)
        }
    },
    Program("values-bool-double") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            for sql in ["SELECT 0", "SELECT 1", "SELECT 2", "SELECT -1", "SELECT 0.0", "SELECT 0.5", "SELECT 'true'",
                        "SELECT '1'", "SELECT '0'", "SELECT ''", "SELECT x'00'", "SELECT NULL"] {
                convert(db, sql, Bool.self)
            }
            for sql in ["SELECT 1", "SELECT 1.25", "SELECT '3.5'", "SELECT 'x'", "SELECT 9223372036854775807", "SELECT 1e400", "SELECT x'01'"] {
                convert(db, sql, Double.self)
                convert(db, sql, Float.self)
            }
            store(db, "true", true)
            store(db, "false", false)
            store(db, "double", 1.5)
            store(db, "float", Float(0.25))
            store(db, "nan", Double.nan)
            store(db, "infinity", Double.infinity)
            store(db, "whole double", 3.0)
        }
    },
    Program("values-strings-data") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            for sql in ["SELECT 'héllo'", "SELECT 12", "SELECT 1.5", "SELECT x'68656C6C6F'", "SELECT x'FF00'", "SELECT NULL", "SELECT ''"] {
                convert(db, sql, String.self)
                convert(db, sql, Data.self)
            }
            store(db, "string", "a'b")
            store(db, "empty string", "")
            store(db, "data", Data([0, 1, 2, 255]))
            store(db, "empty data", Data())
            store(db, "url", URL(string: "https://example.com/a?b=c")!)
            convert(db, "SELECT 'https://example.com/path'", URL.self)
            convert(db, "SELECT 'not a url with spaces'", URL.self)
            convert(db, "SELECT 42", URL.self)
        }
    },
    Program("values-dates") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            let date = Date(timeIntervalSince1970: 1_234_567_890.123)
            store(db, "date", date)
            store(db, "date 1970", Date(timeIntervalSince1970: 0))
            store(db, "date before 1970", Date(timeIntervalSince1970: -86_400.5))
            store(db, "date components", DatabaseDateComponents(
                DateComponents(year: 2020, month: 1, day: 2, hour: 3, minute: 4), format: .YMD_HM))
            store(db, "date components HMS", DatabaseDateComponents(
                DateComponents(hour: 3, minute: 4, second: 5), format: .HMS))
            for sql in ["SELECT '2009-02-13 23:31:30.123'", "SELECT '2009-02-13 23:31:30'", "SELECT '2009-02-13 23:31'",
                        "SELECT '2009-02-13'", "SELECT '2009-02-13T23:31:30.123Z'", "SELECT '2009-02-13T23:31:30+01:00'",
                        "SELECT '2009-02-13 23:31:30.123456'", "SELECT '23:31:30'", "SELECT '2009-13-45'",
                        "SELECT 1234567890", "SELECT 1234567890.5", "SELECT 'garbage'", "SELECT NULL",
                        "SELECT '  2009-02-13'", "SELECT '2009-02-13 23:31:30 +0100'"] {
                quietly {
                    step("\(sql) as Date") { try Date.fetchOne(db, sql: sql).map { "\($0) \($0.timeIntervalSince1970)" } }
                    step("\(sql) as DatabaseDateComponents") {
                        try DatabaseDateComponents.fetchOne(db, sql: sql).map {
                            "\($0.format) \($0.dateComponents.year as Any) \($0.dateComponents.month as Any) \($0.dateComponents.day as Any) \($0.dateComponents.hour as Any) \($0.dateComponents.minute as Any) \($0.dateComponents.second as Any) \($0.dateComponents.nanosecond as Any) tz=\($0.dateComponents.timeZone?.secondsFromGMT() as Any)"
                        }
                    }
                }
            }
            quietly {
                step("date round trip") {
                    try Date.fetchOne(db, sql: "SELECT ?", arguments: [date])!.timeIntervalSince1970
                }
                step("date sql") { try String.fetchOne(db, sql: "SELECT datetime(?)", arguments: [date]) }
            }
        }
    },
    Program("values-uuid-decimal") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
            store(db, "uuid", uuid)
            for sql in ["SELECT x'E621E1F8C36C495A93FC0C247A3E6E5F'", "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'",
                        "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'", "SELECT 'E621E1F8C36C495A93FC0C247A3E6E5F'",
                        "SELECT x'E621'", "SELECT 'nope'", "SELECT 12"] {
                convert(db, sql, UUID.self)
            }
            store(db, "decimal", Decimal(string: "12.5")!)
            store(db, "decimal integer", Decimal(42))
            store(db, "decimal negative", Decimal(string: "-0.001")!)
            for sql in ["SELECT 12", "SELECT 12.5", "SELECT '12.25'", "SELECT 'abc'", "SELECT x'31'", "SELECT 9223372036854775807"] {
                convert(db, sql, Decimal.self)
            }
        }
    },
    Program("values-database-value") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            quietly {
                step("descriptions") {
                    [DatabaseValue.null, 1.databaseValue, 1.5.databaseValue, "a\"b".databaseValue,
                     Data([1, 2]).databaseValue].map { "\($0) | \(String(reflecting: $0)) | \($0.isNull)" }
                }
                step("storage") {
                    [DatabaseValue.null, 1.databaseValue, 1.5.databaseValue, "x".databaseValue, Data([1]).databaseValue]
                        .map { "\($0.storage)" }
                }
                step("equality") {
                    [1.databaseValue == 1.0.databaseValue, "1".databaseValue == 1.databaseValue,
                     DatabaseValue.null == DatabaseValue.null, 2.databaseValue == 2.databaseValue]
                }
                step("fetch") { try DatabaseValue.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT 'a' UNION ALL SELECT NULL UNION ALL SELECT 2.5 UNION ALL SELECT x'00'") }
                step("DatabaseValue.fetchOne NULL") { try DatabaseValue.fetchOne(db, sql: "SELECT NULL") }
                step("DatabaseValue.fetchAll NULL") { try DatabaseValue.fetchAll(db, sql: "SELECT NULL") }
                step("optional fetch") { try String?.fetchAll(db, sql: "SELECT 'a' UNION ALL SELECT NULL") }
                step("non-optional NULL") { try String.fetchAll(db, sql: "SELECT 'a' UNION ALL SELECT NULL") }
                step("non-optional NULL one") { try Int.fetchOne(db, sql: "SELECT NULL") }
                step("raw representable") {
                    return (try Color.fetchAll(db, sql: "SELECT 'red' UNION ALL SELECT 'blue'"),
                            try Level.fetchOne(db, sql: "SELECT 2"),
                            try Color.fetchOne(db, sql: "SELECT 'green'"),
                            Color.red.databaseValue)
                }
                step("row values") {
                    let row = try firstRow(db, "SELECT 1 AS a, 'x' AS b, NULL AS c, 2.5 AS A")
                    return (row.count, Array(row.columnNames), Array(row.databaseValues), row["a"] as Int?, row["A"] as Int?,
                            row["missing"] as Int?, row.hasColumn("B"), row.hasNull(atIndex: 2), row[2] as String?,
                            row.description, row.debugDescription)
                }
                step("row equality and copies") {
                    let rows = try Row.fetchAll(db, sql: "SELECT 1 AS a UNION ALL SELECT 1 AS a")
                    let row = Row(["a": 1])
                    return (rows[0] == rows[1], row == Row(["a": 1]), row == Row(["a": 1.0]), row.copy(), Row(), Row(["a": nil]))
                }
            }
        }
    },
]
