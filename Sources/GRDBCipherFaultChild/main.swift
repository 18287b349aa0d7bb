// A process for the fault-injection tests: it runs one operation on an
// encrypted database, under a file-size limit or until it is killed, and
// prints a line to standard output for each step it acknowledges.
import Foundation
import GRDBCipher
#if canImport(Glibc)
import Glibc
#endif

func say(_ line: String) {
    // Unbuffered: a line is only printed once the step is done.
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// Simulates a full disk: writes past `bytes` fail with EFBIG.
func limitFileSize(to bytes: Int) {
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
}

func configuration(_ passphrase: String) -> Configuration {
    var config = Configuration()
    config.passphrase = passphrase
    return config
}

func code(of error: any Error) -> String {
    (error as? DatabaseError).map { "\($0.resultCode.rawValue)" } ?? "\(error)"
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "rotate":
    // rotate pool|queue PATH OLD NEW FSIZE
    let (kind, path, old, new, size) = (arguments[1], arguments[2], arguments[3], arguments[4], Int(arguments[5])!)
    let writer: any DatabaseWriter = kind == "pool"
        ? try DatabasePool(path: path, configuration: configuration(old))
        : try DatabaseQueue(path: path, configuration: configuration(old))
    limitFileSize(to: size)
    do {
        try writer.barrierWriteWithoutTransaction { db in try db.changePassphrase(new) }
        say("ROTATED")
    } catch {
        say("FAILED \(code(of: error))")
    }
    // What the reported bug needed to lose the file: one more write.
    do {
        try writer.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after-rotation')") }
        say("WROTE")
    } catch {
        say("WRITE-FAILED \(code(of: error))")
    }
case "rotate-loop":
    // rotate-loop PATH K0,K1,...: rotates from key 0 to 1, 2, ... and around.
    let (path, keys) = (arguments[1], arguments[2].split(separator: ",").map(String.init))
    let dbPool = try DatabasePool(path: path, configuration: configuration(keys[0]))
    var index = 0
    while true {
        let next = (index + 1) % keys.count
        say("ROTATING \(next)")
        try dbPool.changePassphrase(keys[next])
        say("KEY \(next)")
        index = next
    }
case "writer-loop":
    // writer-loop PATH KEY: one acknowledged row per transaction, forever.
    let dbPool = try DatabasePool(path: arguments[1], configuration: configuration(arguments[2]))
    try dbPool.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS ack (id INTEGER PRIMARY KEY, payload BLOB)")
    }
    var id = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT ifnull(max(id), 0) FROM ack")! }
    while true {
        id += 1
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO ack (id, payload) VALUES (?, randomblob(1000))", arguments: [id])
        }
        say("ACK \(id)")
    }
default:
    FileHandle.standardError.write(Data("unknown command: \(arguments)\n".utf8))
    exit(2)
}
