import Dispatch
import Foundation
@testable import GRDBCipher

/// Values and errors a callback observation received, and waits for them.
final class ObservationRecorder<Value: Sendable>: @unchecked Sendable {
    // Safe: the state is only touched while `condition` is locked.
    private let condition = NSCondition()
    private var _values: [Value] = []
    private var _errors: [any Error] = []

    var values: [Value] { condition.withLock { _values } }
    var errors: [any Error] { condition.withLock { _errors } }

    func record(_ value: Value) {
        condition.withLock {
            _values.append(value)
            condition.broadcast()
        }
    }

    func record(error: any Error) {
        condition.withLock {
            _errors.append(error)
            condition.broadcast()
        }
    }

    /// Waits until `predicate` holds for the values, or for a minute (a
    /// hang, which the caller's expectations then report).
    @discardableResult
    func wait(until predicate: ([Value]) -> Bool) -> [Value] {
        let deadline = Date(timeIntervalSinceNow: 60)
        return condition.withLock {
            while !predicate(_values), _errors.isEmpty, condition.wait(until: deadline) {}
            return _values
        }
    }

    /// Waits for `count` values, or an error, or a minute.
    @discardableResult
    func wait(forCount count: Int) -> [Value] {
        wait { $0.count >= count }
    }

    /// Waits for an error, or a minute.
    func waitForError() -> (any Error)? {
        let deadline = Date(timeIntervalSinceNow: 60)
        return condition.withLock {
            while _errors.isEmpty, condition.wait(until: deadline) {}
            return _errors.first
        }
    }

    /// Starts `observation` in `reader`, recording on a serial queue.
    func start<R>(_ observation: ValueObservation<R>, in reader: any DatabaseReader) -> AnyDatabaseCancellable
    where R.Value == Value {
        observation.start(
            in: reader,
            scheduling: .async(onQueue: DispatchQueue(label: "ObservationRecorder")),
            onError: { self.record(error: $0) },
            onChange: { self.record($0) })
    }
}

/// The number of times `countedRead()` ran, per test (each test registers
/// the function with its own counter).
final class ReadCounter: Sendable {
    private let count = LockedValue(0)
    var value: Int { count.withLock { $0 } }

    /// A configuration keyed with `passphrase` whose connections count
    /// calls to `countedRead()`.
    func configuration(_ passphrase: String = "observed secret") -> Configuration {
        var config = keyed(passphrase)
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("countedRead", argumentCount: 0) { _ in
                self.count.withLock { $0 += 1 }
                return 0
            })
        }
        return config
    }
}

/// The kinds of database an observation test runs on.
enum ObservedDatabaseKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case queue, pool
    var description: String { rawValue }
}

/// An encrypted queue or pool with a `t` table (id, value) and an
/// untracked `u` table.
func makeObservedDatabase(
    _ kind: ObservedDatabaseKind, in dir: TemporaryDirectory, configuration: Configuration = keyed("observed secret")
) throws -> any DatabaseWriter {
    let path = dir.path("observed.sqlite")
    let writer: any DatabaseWriter = switch kind {
    case .queue: try DatabaseQueue(path: path, configuration: configuration)
    case .pool: try DatabasePool(path: path, configuration: configuration)
    }
    try writer.write { db in
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
        try db.execute(sql: "CREATE TABLE u (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
    }
    return writer
}

func insertRow(_ writer: some DatabaseWriter, into table: String = "t", value: Int = 0) throws {
    try writer.write { db in
        try db.execute(sql: "INSERT INTO \(table) (value) VALUES (?)", arguments: [value])
    }
}

/// An observation of the number of rows of `t`.
let rowCountObservation = ValueObservation.tracking { db in
    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
}

struct ObservationTestError: Error, Equatable {}
