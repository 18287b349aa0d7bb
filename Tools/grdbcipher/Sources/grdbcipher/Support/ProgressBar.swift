import Foundation

/// A one-line progress bar on standard error, redrawn in place:
/// `backup [##########..........]  50%  512/1024 pages`.
///
/// Nothing is drawn when disabled, nor before `delay` seconds have passed:
/// quick work on a small file shows no bar.
final class ProgressBar: @unchecked Sendable {  // safe: mutable state only under `lock`
    private let label: String
    private let enabled: Bool
    private let start = Date()
    private let delay: TimeInterval
    private let lock = NSLock()
    private var lastDraw: Date?
    private var lastDetail = ""
    private var hasDrawn = false
    private var isFinished = false

    init(label: String, enabled: Bool, delay: TimeInterval) {
        self.label = label
        self.enabled = enabled
        self.delay = delay
    }

    /// Shows `fraction` (0 to 1) done, with `detail` after the percentage.
    /// Redraws at most ten times a second.
    func update(fraction: Double, detail: String = "") {
        lock.lock()
        defer { lock.unlock() }
        guard enabled, !isFinished else { return }
        let now = Date()
        guard now.timeIntervalSince(start) >= delay else { return }
        if let lastDraw, now.timeIntervalSince(lastDraw) < 0.1 { return }
        lastDraw = now
        lastDetail = detail
        draw(fraction: fraction, detail: detail)
    }

    /// Shows the work as complete and ends the line, if a bar was drawn or
    /// the bar was forced on; `detail` defaults to the last one shown.
    func finish(detail: String? = nil) {
        lock.lock()
        defer { lock.unlock() }
        guard enabled, !isFinished else { return }
        if hasDrawn || delay == 0 {
            draw(fraction: 1, detail: detail ?? lastDetail)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        isFinished = true
    }

    private func draw(fraction: Double, detail: String) {
        let clamped = min(max(fraction, 0), 1)
        let width = 30
        let filled = Int((clamped * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = Int((clamped * 100).rounded(.down))
        let percentText = String(repeating: " ", count: 3 - String(percent).count) + "\(percent)%"
        let line = "\r\(label) [\(bar)] \(percentText)" + (detail.isEmpty ? "" : "  \(detail)") + "\u{1B}[K"
        FileHandle.standardError.write(Data(line.utf8))
        hasDrawn = true
    }
}

/// Drives a progress bar from the size of files that grow while SQLCipher
/// works inside one call that reports nothing (an export, a re-encryption):
/// a background thread measures them ten times a second. The bar is an
/// estimate: it stops at 99% until the work returns.
final class FileGrowthMonitor: @unchecked Sendable {  // safe: `stopped` only under `lock`
    private let bar: ProgressBar
    private let lock = NSLock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts measuring: `measure` returns the bytes written so far, out of
    /// about `expectedBytes`.
    init(bar: ProgressBar, expectedBytes: Int64, measure: @escaping @Sendable () -> Int64) {
        self.bar = bar
        let thread = Thread { [self] in
            while !isStopped {
                let written = measure()
                let fraction = expectedBytes > 0 ? min(Double(written) / Double(expectedBytes), 0.99) : 0
                bar.update(fraction: fraction, detail: ByteCount.format(written))
                Thread.sleep(forTimeInterval: 0.1)
            }
            done.signal()
        }
        thread.start()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Stops measuring; `succeeded` draws the bar at 100%.
    func stop(succeeded: Bool, detail: String = "") {
        lock.lock()
        stopped = true
        lock.unlock()
        done.wait()
        bar.finish(detail: succeeded ? detail : "failed")
    }

    /// The total size of the files in `folder` whose names start with `prefix`.
    static func size(ofFilesIn folder: String, prefix: String) -> Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.reduce(0) { total, name in
            total + size(of: (folder as NSString).appendingPathComponent(name))
        }
    }

    /// The size of a file, 0 when it does not exist.
    static func size(of path: String) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
}

/// Byte counts as people read them.
enum ByteCount {
    static func format(_ bytes: Int64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f", value) + " " + units[unit]
    }
}
