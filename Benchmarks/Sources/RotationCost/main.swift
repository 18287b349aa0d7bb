// Key rotation in place (SQLCipher's rekey, proven by a fresh connection)
// against copy and swap (export under the new key, verify, rename over the
// file, reopen), on pools of the same encrypted files. For each size: the
// median time of several runs, alternating which strategy goes first, and
// the peak disk space the database's files took during the rotation (sampled
// every millisecond), as a multiple of the file's size.
//
//   swift run -c release --package-path Benchmarks RotationCost [MB ...]
import Foundation
import GRDBCipher

struct Measure {
    var seconds: [Double] = []
    var peakBytes: [Int] = []
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// The bytes of every file in `folder`, which holds one database and what
/// the rotation writes beside it.
func folderBytes(_ folder: String) -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).reduce(0) { $0 + fileSize(folder + "/" + $1) }
}

/// Samples the folder's size on a thread of its own until stopped.
final class PeakSampler: @unchecked Sendable {
    // Safe: `peak` and `running` are only touched while `lock` is held.
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let folder: String

    init(folder: String) {
        self.folder = folder
        Thread.detachNewThread { [self] in
            while sample(folderBytes(folder)) { usleep(1_000) }
        }
    }

    private func sample(_ bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        peak = max(peak, bytes)
        return running
    }

    /// Stops sampling and returns the largest size seen.
    func stop() -> Int {
        lock.lock()
        defer { lock.unlock() }
        running = false
        return max(peak, folderBytes(folder))
    }
}

func configuration(_ passphrase: String) -> Configuration {
    var config = Configuration()
    config.passphrase = passphrase
    return config
}

/// A pool's file of about `megabytes` MB: rows of 1,000 random bytes, WAL
/// checkpointed.
func makeDatabase(at path: String, megabytes: Int) throws {
    let pool = try DatabasePool(path: path, configuration: configuration("key 0"))
    try pool.write { db in
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)")
        try db.execute(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO t (payload) SELECT randomblob(1000) FROM n
                """,
            arguments: [megabytes * 1_000])
    }
    try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    try pool.close()
}

func inPlace(_ path: String, from old: String, to new: String) throws {
    let pool = try DatabasePool(path: path, configuration: configuration(old))
    try pool.changePassphrase(new)
    try pool.close()
}

func copyAndSwap(_ path: String, from old: String, to new: String) throws {
    let pool = try DatabasePool(path: path, configuration: configuration(old))
    let copy = path + ".new"
    try pool.export(to: copy, encryption: .encrypted(key: .passphrase(new)))
    try pool.close()
    try DatabaseFile.replace(atPath: path, with: copy)
    let reopened = try DatabasePool(path: path, configuration: configuration(new))
    try reopened.close()
}

let sizes = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let runs = 3
for megabytes in sizes.isEmpty ? [20, 200] : sizes {
    let folder = NSTemporaryDirectory() + "rotation-cost-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/db.sqlite"
    try makeDatabase(at: path, megabytes: megabytes)
    let size = fileSize(path)
    var results: [String: Measure] = [:]
    var key = 0
    for run in 0..<runs {
        let strategies: [(String, (String, String, String) throws -> Void)] = [("in place", inPlace), ("copy and swap", copyAndSwap)]
        for (name, rotate) in run % 2 == 0 ? strategies : strategies.reversed() {
            let sampler = PeakSampler(folder: folder)
            let start = DispatchTime.now().uptimeNanoseconds
            try rotate(path, "key \(key)", "key \(key + 1)")
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let peak = sampler.stop()
            key += 1
            results[name, default: Measure()].seconds.append(elapsed)
            results[name, default: Measure()].peakBytes.append(peak)
        }
    }
    print("\(megabytes) MB (\(size) bytes), median of \(runs):")
    for name in ["in place", "copy and swap"] {
        let measure = results[name]!
        let seconds = measure.seconds.sorted()[runs / 2]
        let peak = Double(measure.peakBytes.max()!) / Double(size)
        print("  \(name): \(String(format: "%.2f", seconds)) s, peak disk \(String(format: "%.2f", peak))x the file")
    }
}
