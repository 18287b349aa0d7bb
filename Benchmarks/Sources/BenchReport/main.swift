// Reads the percentile files that package-benchmark wrote (each workload
// times its raw-C and GRDBCipher sides in turn, as two custom metrics), and
// prints one table of fastest and median times and their ratios; also writes
// it, with the machine and SQLCipher version, to a file.
//
// Usage: BenchReport <percentiles folder> <output markdown file>
import CSQLCipherRaw
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: BenchReport <percentiles folder> <output.md>\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])
let outputPath = arguments[2]

/// The targets, by workload prefix, as ratios to raw C. W7's and W8b's
/// include their proofs (a fresh connection reads every page of the result);
/// W14 is judged against GRDB, side by side (`make bench-observation`).
let targets: [String: Double] = [
    "W1": 1.10, "W2": 1.10, "W3": 1.5, "W4": 1.25, "W4b": 1.10, "W4c": 1.20, "W7": 1.60, "W8b": 1.10,
    "W10a": 1.5, "W10b": 1.60, "W11a": 1.30, "W11b": 1.60, "W12": 1.6, "W13": 1.3,
]

/// The workloads whose target is set above their API floor (`APIFloors`: the
/// raw loop plus what GRDB's API forces), as the most their median paired
/// ratio may exceed the floor's, in the same run. W10b's absolute target
/// (1.60) is below its floor (1.65 in instructions: the standard library's
/// Codable containers alone); W8b's target is stated beside the proof that
/// an export keeps, which its floor includes (see Benchmarks/README.md).
let floorAllowances: [String: Double] = ["W8b": 1.10, "W10b": 1.25]

/// The floor of each workload that has one.
let floorOf: [String: String] = [
    "W1": "W1", "W4": "W4", "W4c": "W4c", "W8b": "W8b", "W10b": "W10b", "W11a": "W11a", "W11b": "W11b",
]

/// A percentile of the wall-clock time, in the file's unit, from a percentile TSV.
func percentile(_ rank: String, _ url: URL) -> Double? {
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: "\t")
        if fields.count == 2, fields[0] == rank, let value = Double(fields[1]) { return value }
    }
    return nil
}

/// The factor of a file's unit, from its header ("rawC (K) *"; no unit in
/// "pairRatio *"): custom metrics are shown scaled. Traps on a unit it does not know, rather than
/// report wrong times.
func scale(_ url: URL) -> Double {
    let header = (try? String(contentsOf: url, encoding: .utf8))?.split(separator: "\n").first ?? ""
    if header.contains("(#)") || !header.contains("(") { return 1 }
    if header.contains("(K)") { return 1e3 }
    if header.contains("(M)") { return 1e6 }
    if header.contains("(G)") { return 1e9 }
    fatalError("BenchReport: unknown unit in \(url.lastPathComponent): \(header)")
}

/// Times in milliseconds, by workload, then side ("rawC" or "GRDBCipher").
var medians: [String: [String: Double]] = [:]
var minimums: [String: [String: Double]] = [:]
/// The median of the per-sample ratios GRDBCipher / raw C, by workload.
var pairedRatios: [String: Double] = [:]
/// The median paired ratio of each API floor to its raw loop, by workload prefix.
var floorRatios: [String: Double] = [:]
let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
for file in files where file.lastPathComponent.hasSuffix(".histogram.percentiles.tsv") {
    // Current_run.GRDBCipherBenchmarks.W1-fetch-by-index.rawC.histogram.percentiles.tsv
    let parts = file.lastPathComponent.split(separator: ".")
    guard parts.count >= 4, let median = percentile("50", file) else { continue }
    let workload = String(parts[2])
    let metric = String(parts[3])
    if workload.hasSuffix("-floor") {
        if metric == "pairRatio" { floorRatios[String(workload.prefix { $0 != "-" })] = median * scale(file) / 1000 }
        continue
    }
    if metric == "pairRatio" {
        // Recorded in thousandths.
        pairedRatios[workload] = median * scale(file) / 1000
        continue
    }
    medians[workload, default: [:]][metric] = median * scale(file) / 1e6
    // A file without its fastest sample counts its median as fastest.
    minimums[workload, default: [:]][metric] = (percentile("0", file) ?? median) * scale(file) / 1e6
}
guard !medians.isEmpty else {
    FileHandle.standardError.write(Data("BenchReport: no results in \(folder.path)\n".utf8))
    exit(1)
}

func format(_ milliseconds: Double?) -> String {
    guard let milliseconds else { return "-" }
    return milliseconds < 10 ? String(format: "%.2f ms", milliseconds) : String(format: "%.1f ms", milliseconds)
}

func ratio(_ times: [String: Double]?) -> Double? {
    guard let raw = times?["rawC"], let grdb = times?["GRDBCipher"], raw > 0 else { return nil }
    return grdb / raw
}

func format(ratio: Double?) -> String {
    ratio.map { String(format: "%.2f", $0) } ?? "-"
}

// Targets are judged on the median of the per-sample ratios: both sides of a
// sample run one right after the other, so a slow period of the machine
// slows both, and the median discards samples where it hit only one side.
// The fastest and median times of each side are shown beside it.
var lines = [
    "| workload | raw C (fastest / median) | GRDBCipher (fastest / median) | ratio of fastest | median paired ratio | API floor | target |",
    "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
]
for workload in medians.keys.sorted() {
    let pairedRatio = pairedRatios[workload]
    let prefix = String(workload.prefix { $0 != "-" })
    let floor = floorOf[prefix].flatMap { floorRatios[$0] }
    var target = targets[prefix].map { "≤ \(String(format: "%.2f", $0))" } ?? ""
    var limit = targets[prefix]
    if let allowance = floorAllowances[prefix] {
        if let floor {
            limit = floor * allowance
            target = String(format: "≤ floor × %.2f = %.2f", allowance, floor * allowance) + " (issue: \(target))"
        } else {
            limit = nil
            target += " (no floor measured)"
        }
    }
    if let limit, let pairedRatio { target += pairedRatio <= limit ? " met" : " MISSED" }
    if workload.hasPrefix("W6c") { target = "see below: ≥ 50× faster than a passphrase open" }
    if workload.hasPrefix("W14") { target = "against GRDB: see Benchmarks/README.md" }
    let raw = "\(format(minimums[workload]?["rawC"])) / \(format(medians[workload]?["rawC"]))"
    let grdb = "\(format(minimums[workload]?["GRDBCipher"])) / \(format(medians[workload]?["GRDBCipher"]))"
    lines.append(
        "| \(workload) | \(raw) | \(grdb) | \(format(ratio: ratio(minimums[workload]))) | \(format(ratio: pairedRatio)) | \(format(ratio: floor)) | \(target) |")
}
if let passphraseOpen = minimums["W6a-open-passphrase"]?["GRDBCipher"],
   let poolReaders = minimums["W6c-pool-readers-2-5"]?["GRDBCipher"]
{
    let perReader = poolReaders / 4
    lines.append("")
    lines.append(String(
        format: "Pool readers 2–5 (fastest runs): %.2f ms each, %.0f× faster than a passphrase open (%.1f ms); target ≥ 50×.",
        perReader, passphraseOpen / perReader, passphraseOpen))
}
for (workload, times) in medians.sorted(by: { $0.key < $1.key }) {
    guard let p50 = times["latencyP50"], let p99 = times["latencyP99"] else { continue }
    lines.append("")
    lines.append("\(workload): commit-to-value latency (medians of the samples) "
        + String(format: "%.3f ms at p50, %.3f ms at p99.", p50, p99))
}
let table = lines.joined(separator: "\n")
print(table)

var handle: OpaquePointer?
sqlite3_open(":memory:", &handle)
var statement: OpaquePointer?
sqlite3_prepare_v2(handle, "PRAGMA cipher_version", -1, &statement, nil)
let cipherVersion = sqlite3_step(statement) == SQLITE_ROW ? String(cString: sqlite3_column_text(statement, 0)) : "unknown"
sqlite3_finalize(statement)
sqlite3_close(handle)

var system = utsname()
uname(&system)
func text<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
}
let date = ISO8601DateFormatter().string(from: Date())
let markdown = """
    # Benchmark results

    - Date: \(date)
    - Machine: \(text(system.sysname)) \(text(system.release)) \(text(system.machine)), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB
    - SQLCipher: \(cipherVersion), SQLite \(String(cString: sqlite3_libversion()))
    - Wall-clock times (package-benchmark), fastest and median sample. Each sample times both sides one right after the other, in alternating order, on the same kind of encrypted file, so that both see the same machine. Targets are judged on the median of the per-sample ratios.

    \(table)

    """
try markdown.write(toFile: outputPath, atomically: true, encoding: .utf8)
print("\nwritten to \(outputPath)")
