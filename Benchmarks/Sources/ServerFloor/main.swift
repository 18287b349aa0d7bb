// The floor of the example server's encryption cost: the statements of
// its load test (Examples/TodoServer/scripts/mixed.lua) run through the
// SQLite C API on SQLCipher, keyed (SQLCipher 4's defaults, as the server
// keys its pool) and not keyed (plain SQLite pages, as
// `TODOSERVER_PLAINTEXT=1`), on the server's schema, in WAL mode, with a
// writer and a reader connection as the server's pool has them. No HTTP,
// no JSON, no Swift library: the ratio of the two throughputs is what
// encryption itself costs this mix. Rounds alternate the two files, so
// that both see the same machine.
//
//   swift run -c release --package-path Benchmarks ServerFloor [rounds] [operations per round]
import CSQLCipherRaw
import Foundation

let arguments = CommandLine.arguments
let rounds = arguments.count > 1 ? Int(arguments[1]) ?? 11 : 11
let operationsPerRound = arguments.count > 2 ? Int(arguments[2]) ?? 40_000 : 40_000
let seededRows = 1_000

/// One connection, trapping on errors: a floor that fails must not report a time.
final class Connection {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, passphrase: String?) {
        var handle: OpaquePointer?
        precondition(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK)
        self.handle = handle!
        if let passphrase {
            let bytes = Array(passphrase.utf8)
            precondition(sqlite3_key(self.handle, bytes, CInt(bytes.count)) == SQLITE_OK)
        }
        sqlite3_busy_timeout(self.handle, 5_000)
        execute("SELECT count(*) FROM sqlite_master")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        precondition(code == SQLITE_OK, "failed (\(code)): \(message.map { String(cString: $0) } ?? "") in \(sql)")
    }

    /// A statement prepared once and reused, as the library's statement cache does.
    func statement(_ sql: String) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        precondition(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(handle)))
        statements[sql] = statement!
        return statement!
    }

    /// Steps a statement to its end, reading every column of every row, then resets it.
    @discardableResult
    func run(_ statement: OpaquePointer) -> Int64 {
        var sum: Int64 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            precondition(code == SQLITE_ROW, String(cString: sqlite3_errmsg(handle)))
            sum &+= sqlite3_column_int64(statement, 0) &+ sqlite3_column_int64(statement, 2)
            if let text = sqlite3_column_text(statement, 1) { sum &+= Int64(strlen(text)) }
        }
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        return sum
    }
}

/// A deterministic generator, so that both files run the same operations.
struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}

/// The database of one side: the server's schema, in WAL, seeded.
func makeDatabase(path: String, passphrase: String?) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let connection = Connection(path: path, passphrase: passphrase)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("""
        CREATE TABLE "todo" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, \
        "completed" BOOLEAN NOT NULL DEFAULT 0);
        CREATE INDEX "todo_on_completed" ON "todo"("completed");
        """)
    for index in 1...seededRows {
        connection.execute("INSERT INTO \"todo\" (\"title\", \"completed\") VALUES ('seed \(index)', 0)")
    }
}

/// Runs the load test's mix: 50% a to-do by id, 20% a page of 20 (half
/// filtered on `completed`), 20% an insert, 10% a fetch then update by id;
/// reads in a read transaction of the reader, writes in a transaction of
/// the writer. Returns the elapsed and CPU seconds.
func runMix(writer: Connection, reader: Connection, seed: UInt64, count: Int) -> (wall: Double, cpu: Double) {
    var random = Generator(state: seed)
    var sum: Int64 = 0
    let byID = #"SELECT "id", "title", "completed" FROM "todo" WHERE "id" = ?"#
    let page = #"SELECT "id", "title", "completed" FROM "todo" ORDER BY "id" LIMIT ? OFFSET ?"#
    let filteredPage = #"SELECT "id", "title", "completed" FROM "todo" WHERE "completed" = 0 ORDER BY "id" LIMIT ? OFFSET ?"#
    let insert = #"INSERT INTO "todo" ("title", "completed") VALUES (?, ?)"#
    let update = #"UPDATE "todo" SET "title" = ?, "completed" = ? WHERE "id" = ?"#
    let start = DispatchTime.now().uptimeNanoseconds
    let startCPU = processCPUSeconds()
    for operation in 0..<count {
        let r = random.next(100) + 1
        let id = Int64(random.next(seededRows) + 1)
        if r <= 70 {
            reader.execute("BEGIN DEFERRED")
            if r <= 50 {
                let statement = reader.statement(byID)
                sqlite3_bind_int64(statement, 1, id)
                sum &+= reader.run(statement)
            } else {
                let statement = reader.statement(r <= 60 ? filteredPage : page)
                sqlite3_bind_int64(statement, 1, 20)
                sqlite3_bind_int64(statement, 2, Int64(random.next(seededRows - 20)))
                sum &+= reader.run(statement)
            }
            reader.execute("COMMIT")
        } else {
            writer.execute("BEGIN IMMEDIATE")
            if r <= 90 {
                let statement = writer.statement(insert)
                sqlite3_bind_text(statement, 1, "load test \(operation)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                sqlite3_bind_int64(statement, 2, 0)
                writer.run(statement)
            } else {
                let select = writer.statement(byID)
                sqlite3_bind_int64(select, 1, id)
                sum &+= writer.run(select)
                let statement = writer.statement(update)
                sqlite3_bind_text(statement, 1, "seed \(id)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                sqlite3_bind_int64(statement, 2, Int64(r % 2))
                sqlite3_bind_int64(statement, 3, id)
                writer.run(statement)
            }
            writer.execute("COMMIT")
        }
    }
    let end = DispatchTime.now().uptimeNanoseconds
    let endCPU = processCPUSeconds()
    precondition(sum != 0)
    return (Double(end - start) / 1e9, endCPU - startCPU)
}

/// The CPU time of the process: the server's load test keeps its 2 cores
/// busy, so CPU per operation, not the time a commit waits for the disk,
/// is what its throughput follows.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

let folder = NSTemporaryDirectory() + "server-floor-\(ProcessInfo.processInfo.processIdentifier)"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
// A passphrase like the load test's: 64 hex digits, derived by SQLCipher's PBKDF2 at open.
let passphrase = String(repeating: "5e", count: 32)
let sides: [(name: String, passphrase: String?)] = [("encrypted", passphrase), ("plaintext", nil)]
var connections: [(writer: Connection, reader: Connection)] = []
for side in sides {
    let path = "\(folder)/\(side.name).sqlite"
    makeDatabase(path: path, passphrase: side.passphrase)
    connections.append((Connection(path: path, passphrase: side.passphrase), Connection(path: path, passphrase: side.passphrase)))
}
// Warm-up: one short round per side, unmeasured.
for side in connections.indices {
    _ = runMix(writer: connections[side].writer, reader: connections[side].reader, seed: 1, count: operationsPerRound / 10)
}
var times: [[Double]] = [[], []]
var cpuTimes: [[Double]] = [[], []]
var ratios: [Double] = []
var cpuRatios: [Double] = []
for round in 0..<rounds {
    let order = round % 2 == 0 ? [0, 1] : [1, 0]
    var roundTimes = [(wall: 0.0, cpu: 0.0), (wall: 0.0, cpu: 0.0)]
    for side in order {
        roundTimes[side] = runMix(
            writer: connections[side].writer, reader: connections[side].reader,
            seed: UInt64(round + 2), count: operationsPerRound)
        times[side].append(roundTimes[side].wall)
        cpuTimes[side].append(roundTimes[side].cpu)
    }
    // Throughput encrypted / plaintext = time plaintext / time encrypted.
    ratios.append(roundTimes[1].wall / roundTimes[0].wall)
    cpuRatios.append(roundTimes[1].cpu / roundTimes[0].cpu)
}
let throughput = times.map { Double(operationsPerRound) / median($0) }
print("# Server floor: the load test's statements through the C API (\(rounds) rounds × \(operationsPerRound) operations)")
print("")
print("| side | operations/s (median round) | CPU per operation (µs) |")
print("| --- | ---: | ---: |")
for side in sides.indices {
    print("| \(sides[side].name) | \(String(format: "%.0f", throughput[side])) "
        + "| \(String(format: "%.1f", median(cpuTimes[side]) / Double(operationsPerRound) * 1e6)) |")
}
print("")
print(String(format: "encrypted / plaintext, CPU-bound throughput (plaintext CPU / encrypted CPU): %.3f (rounds %.3f to %.3f)",
             median(cpuRatios), cpuRatios.min()!, cpuRatios.max()!))
print(String(format: "encrypted / plaintext, wall-clock throughput (one thread, each commit waits for its fsync): %.3f (rounds %.3f to %.3f)",
             median(ratios), ratios.min()!, ratios.max()!))
