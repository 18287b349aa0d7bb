import Foundation
import Testing
@testable import GRDBCipher

/// What a trace callback saw.
private struct Traced {
    var kind: String
    var sql: String
    var expandedSQL: String
    var description: String
    var duration: TimeInterval?
}

/// Starts tracing into the returned list.
private func startTracing(_ db: Database, options: Database.TracingOptions) -> LockedValue<[Traced]> {
    let events = LockedValue<[Traced]>([])
    db.trace(options: options) { event in
        let traced: Traced
        switch event {
        case .statement(let statement):
            traced = Traced(kind: "statement", sql: statement.sql, expandedSQL: statement.expandedSQL,
                            description: event.description, duration: nil)
        case .profile(let statement, let duration):
            traced = Traced(kind: "profile", sql: statement.sql, expandedSQL: statement.expandedSQL,
                            description: event.description, duration: duration)
        }
        events.withLock { $0.append(traced) }
    }
    return events
}

@Suite("Trace")
struct TraceTests {
    @Test func statementTraceSeesTheSQL() throws {
        try inMemoryDatabase { db throws in
            let events = startTracing(db, options: .statement)
            try db.execute(sql: "SELECT 1 AS traced")
            let traced = events.withLock { $0 }
            #expect(traced.map(\.sql) == ["SELECT 1 AS traced"])
            #expect(traced.map(\.kind) == ["statement"])
            #expect(traced.first?.description == "SELECT 1 AS traced")
        }
    }

    @Test func defaultTraceOptionIsStatement() throws {
        try inMemoryDatabase { db throws in
            let events = LockedValue<[String]>([])
            db.trace { event in
                if case .statement(let statement) = event {
                    events.withLock { $0.append(statement.sql) }
                }
            }
            try db.execute(sql: "CREATE TABLE t (a)")
            #expect(events.withLock { $0 } == ["CREATE TABLE t (a)"])
        }
    }

    @Test func statementTraceSeesEachStatementOfAScript() throws {
        try inMemoryDatabase { db throws in
            let events = startTracing(db, options: .statement)
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1); SELECT * FROM t")
            // Each statement is reported with its own text, without the
            // white space and semicolons around it (as GRDB traces).
            let sqls = events.withLock { $0 }.map(\.sql)
            #expect(sqls == ["CREATE TABLE t (a)", "INSERT INTO t VALUES (1)", "SELECT * FROM t"])
        }
    }

    @Test func profileTraceReportsADuration() throws {
        try inMemoryDatabase { db throws in
            let events = startTracing(db, options: .profile)
            try db.execute(sql: "SELECT 1 AS profiled")
            let traced = events.withLock { $0 }
            #expect(traced.map(\.kind) == ["profile"])
            let event = try #require(traced.first)
            #expect(event.sql == "SELECT 1 AS profiled")
            let duration = try #require(event.duration)
            #expect(duration >= 0 && duration.isFinite)
            #expect(event.description.hasSuffix("s SELECT 1 AS profiled"))
        }
    }

    @Test func statementAndProfileCanBeCombined() throws {
        try inMemoryDatabase { db throws in
            let events = startTracing(db, options: [.statement, .profile])
            try db.execute(sql: "SELECT 1")
            #expect(events.withLock { $0 }.map(\.kind) == ["statement", "profile"])
        }
    }

    @Test func traceWithNilStopsTracing() throws {
        try inMemoryDatabase { db throws in
            let events = startTracing(db, options: .statement)
            try db.execute(sql: "SELECT 1")
            db.trace(options: .statement, nil)
            try db.execute(sql: "SELECT 2")
            // Each statement is reported with its own text (SQLite keeps the
            // white space that precedes it).
            let sqls = events.withLock { $0 }.map { $0.sql.trimmingCharacters(in: .whitespacesAndNewlines) }
            #expect(sqls == ["SELECT 1"])
        }
    }

    @Test func traceHidesArgumentsByDefault() throws {
        try inMemoryDatabase { db throws in
            let events = startTracing(db, options: .statement)
            _ = try String.fetchOne(db, sql: "SELECT ?", arguments: ["secret-value"])
            let event = try #require(events.withLock { $0 }.first)
            #expect(event.description == "SELECT ?")
            #expect(!event.description.contains("secret-value"))
            // expandedSQL is there for whoever asks explicitly.
            #expect(event.expandedSQL == "SELECT 'secret-value'")
        }
    }

    @Test func traceShowsArgumentsWhenPublic() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        try inMemoryDatabase(configuration: configuration) { db throws in
            let events = startTracing(db, options: .statement)
            _ = try String.fetchOne(db, sql: "SELECT ?", arguments: ["visible-value"])
            let event = try #require(events.withLock { $0 }.first)
            #expect(event.description == "SELECT 'visible-value'")
            #expect(event.sql == "SELECT ?")
        }
    }
}
