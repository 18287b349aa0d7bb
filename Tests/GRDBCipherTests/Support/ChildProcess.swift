import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `GRDBCipherFaultChild` process, whose standard output lines are
/// collected as they arrive.
final class ChildProcess: @unchecked Sendable {
    // Safe: `lines` and `buffer` are only touched while `lock` is held.
    private let process = Process()
    private let lock = NSCondition()
    private var lines: [String] = []
    private var buffer = Data()

    /// The child executable, built beside the test bundle.
    static var executableURL: URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("GRDBCipherFaultChild")
    }

    init(_ arguments: [String]) throws {
        process.executableURL = Self.executableURL
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.receive(handle.availableData)
        }
        try process.run()
    }

    private func receive(_ data: Data) {
        lock.lock()
        buffer.append(data)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...newline)
        }
        lock.broadcast()
        lock.unlock()
    }

    /// The lines printed so far.
    var output: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// Waits until a line starts with `prefix`; returns it, or nil after `timeout`.
    func waitForLine(startingWith prefix: String, timeout: TimeInterval = 30) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
            if !lock.wait(until: deadline) { return nil }
        }
    }

    /// SIGKILL, then waits for the process to end.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the process to end, then for its last output.
    func waitUntilExit() {
        process.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.05)
    }
}
