// The harness shared by every program: opening databases (encrypted on the GRDBCipher side),
// tracing the SQL, and printing results and errors in one deterministic format.
#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// One program: a name the runner passes on the command line, and a body that prints.
struct Program: Sendable {
    let name: String
    let body: @Sendable () throws -> Void

    init(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        self.name = name
        self.body = body
    }
}

/// Prints a transcript line.
/// Module names differ between the sides (`CompatGRDB.Player`, `GRDBCipher.Row`): they are
/// written as on the GRDB side.
func out(_ line: String) {
    let line = line
        .replacingOccurrences(of: "CompatGRDBCipher.", with: "")
        .replacingOccurrences(of: "CompatGRDB.", with: "")
        .replacingOccurrences(of: "GRDBCipher.", with: "GRDB.")
    if heldLines.append(line) { return }
    print(line)
    fflush(nil)
}

/// Lines printed from several queues at once (the values of two observations delivered in
/// the same drain of the main queue, the SQL they run): while held, `out` keeps them, and
/// `release` prints them grouped by their first word, each group in the order it came. Their
/// relative order is not deterministic, in GRDB or GRDBCipher, on a busy machine.
final class HeldLines: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var lines: [String]?

    func hold() { lock.withLock { lines = [] } }

    /// Keeps the line if lines are held.
    func append(_ line: String) -> Bool {
        lock.withLock {
            guard lines != nil else { return false }
            lines!.append(line)
            return true
        }
    }

    func release() {
        let held = lock.withLock { defer { lines = nil }; return lines ?? [] }
        let key = { (line: String) in line.split(separator: " ").first.map(String.init) ?? "" }
        let ordered = held.enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }
        for (_, line) in ordered { print(line) }
        fflush(nil)
    }
}

let heldLines = HeldLines()

// Whether the trace of the current program prints SQL (some steps hide their setup).
nonisolated(unsafe) var tracePrints = true

// Folders to remove when the program ends.
nonisolated(unsafe) var temporaryFolders: [URL] = []

/// The path of a new database file in a new temporary folder.
func temporaryDatabasePath() throws -> String {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("compat-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    temporaryFolders.append(folder)
    return folder.appendingPathComponent("db.sqlite").path
}

/// The configuration of the harness: the GRDBCipher side sets a passphrase; both sides show
/// statement arguments (so that traces and errors can be compared), unless `configure` says
/// otherwise.
func harnessConfiguration(_ configure: (inout Configuration) -> Void = { _ in }) -> Configuration {
    var config = Configuration()
    #if GRDBCIPHER
    config.passphrase = "compat harness passphrase"
    #endif
    config.publicStatementArguments = true
    configure(&config)
    return config
}

/// Whether a traced statement is schema introspection that the library runs on its own
/// (GRDB and GRDBCipher read the schema with different queries, and cache it differently):
/// such statements are left out of transcripts. Programs read the schema themselves quietly.
func isIntrospection(_ sql: String) -> Bool {
    if sql.contains("sqlite_master") || sql.contains("sqlite_temp_master") || sql.contains("sqlite_schema") {
        return true
    }
    guard sql.hasPrefix("PRAGMA ") else { return false }
    let pragmas = ["schema_version", "database_list", "table_xinfo", "table_info", "table_list",
                   "index_list", "index_info", "index_xinfo", "foreign_key_list"]
    let name = sql.dropFirst("PRAGMA ".count).split(separator: "(")[0].split(separator: ".").last.map(String.init) ?? ""
    return pragmas.contains(name.trimmingCharacters(in: .whitespaces))
}

/// Installs the harness trace on a connection: each statement prints as `SQL: ...`.
func installTrace(_ db: Database) {
    db.trace { event in
        let sql = event.expandedDescription
        if tracePrints && !isIntrospection(sql) { out("SQL: \(sql)") }
    }
}

/// A database queue on a new file, traced.
func makeQueue(traced: Bool = true, _ configure: (inout Configuration) -> Void = { _ in }) throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue(path: temporaryDatabasePath(), configuration: harnessConfiguration(configure))
    if traced { dbQueue.inDatabase { db in installTrace(db) } }
    return dbQueue
}

/// A database pool on a new file; every connection it opens is traced.
func makePool(_ configure: (inout Configuration) -> Void = { _ in }) throws -> DatabasePool {
    let config = harnessConfiguration { config in
        configure(&config)
        config.prepareDatabase { db in installTrace(db) }
    }
    return try DatabasePool(path: temporaryDatabasePath(), configuration: config)
}

/// Runs `body` with the trace silenced (setup that other programs already cover).
func quietly<T>(_ body: () throws -> T) rethrows -> T {
    let previous = tracePrints
    tracePrints = false
    defer { tracePrints = previous }
    return try body()
}

/// The transcript form of an error.
func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError {
        var parts = ["DatabaseError", "code=\(error.resultCode)", "extended=\(error.extendedResultCode)"]
        parts.append("message=\(error.message ?? "nil")")
        parts.append("sql=\(error.sql ?? "nil")")
        parts.append("arguments=\(error.arguments.map { "\($0)" } ?? "nil")")
        parts.append("description=\(error.description)")
        return parts.joined(separator: " | ")
    }
    if let error = error as? RecordError {
        return "RecordError | \(error)"
    }
    return "\(type(of: error)) | \(error)"
}

/// An unexpected result that the harness reports (a program goes on after it).
enum HarnessError: Error {
    case noRow(String)
}

/// Prints a section title.
func section(_ title: String) {
    out("== \(title)")
}

/// Runs a step and prints what it returned, or what it threw.
func step<T>(_ label: String, _ body: () throws -> T) {
    do {
        let value = try body()
        if T.self == Void.self {
            out("\(label): ok")
        } else {
            out("\(label): \(String(reflecting: value))")
        }
    } catch {
        out("\(label): THROWS \(describe(error))")
    }
}

/// Runs the named programs (all with no name) and prints their transcripts.
func runPrograms(_ names: ArraySlice<String>) {
    if names.first == "--list" {
        for program in allPrograms { print(program.name) }
        return
    }
    let selected = names.isEmpty ? allPrograms : allPrograms.filter { names.contains($0.name) }
    if selected.isEmpty {
        print("no such program: \(names.joined(separator: " "))")
        exit(2)
    }
    for program in selected {
        out("### \(program.name)")
        tracePrints = true
        do {
            try program.body()
        } catch {
            out("PROGRAM THROWS \(describe(error))")
        }
        fflush(nil)
        for folder in temporaryFolders { try? FileManager.default.removeItem(at: folder) }
        temporaryFolders.removeAll()
    }
}
