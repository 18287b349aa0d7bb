import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDBCipherTesting

/// A process that runs while the test goes on: the tool started in the
/// background, or an `sqlcipher` shell that keeps its connection open and
/// runs the statements the test sends. Its standard output is collected
/// line by line as it comes, so that the test waits for what it prints,
/// never for a time.
///
/// ```swift
/// let writer = try RunningProcess.shell(path)
/// writer.send(keyPragma(Secrets.right) + "\nINSERT INTO player(name) VALUES ('a');\nSELECT 'ack a';")
/// #expect(writer.waitForLine("ack a") != nil)
/// ```
final class RunningProcess: @unchecked Sendable {   // safe: the collected output is only touched with `condition` locked
    private let condition = NSCondition()
    private var collectedLines: [String] = []
    private var partialLine = Data()
    private var errorData = Data()
    private var openStreams = 0
    private let process = Process()
    private let input = Pipe()

    /// Starts `executable` with `arguments`, in a clean environment plus `environment`.
    init(executable: URL, arguments: [String], environment: [String: String] = [:]) throws {
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = executable
        process.arguments = arguments
        var base = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GRDBCIPHER_") }
        base.merge(environment) { _, new in new }
        process.environment = base
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        read(output.fileHandleForReading, isOutput: true)
        read(errors.fileHandleForReading, isOutput: false)
    }

    /// The tool, in the background.
    static func tool(_ arguments: [String], environment: [String: String] = [:]) throws -> RunningProcess {
        try RunningProcess(executable: Tool.executableURL, arguments: arguments, environment: environment)
    }

    /// An `sqlcipher` shell on `path` that stops at the first error (`-bail`):
    /// a line it prints after a statement proves that the statement succeeded.
    static func shell(_ path: String) throws -> RunningProcess {
        try RunningProcess(
            executable: URL(fileURLWithPath: try SQLCipherShell.requiredExecutablePath()), arguments: ["-batch", "-bail", path])
    }

    deinit {
        // A test that fails early must not leave a process behind.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Whether the process has ended.
    var hasExited: Bool { !process.isRunning }

    /// The lines printed so far.
    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return collectedLines
    }

    /// Writes `text` and a line break to the process's standard input. A
    /// process that is gone reads nothing, and the test goes on.
    func send(_ text: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((text + "\n").utf8))
    }

    /// The first line that starts with `prefix`, once printed; nil if the
    /// process closed its output first, or after `timeout` seconds (a
    /// safety net for a hung process, not a measure of anything).
    func waitForLine(_ prefix: String, timeout: TimeInterval = 120) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = collectedLines.first(where: { $0.hasPrefix(prefix) }) { return line }
            if openStreams == 0 || !condition.wait(until: deadline) { return nil }
        }
    }

    /// Closes standard input, waits for the end of the process and of its
    /// output, and returns what it did.
    func waitUntilExit() -> Tool.Result {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        condition.lock()
        defer { condition.unlock() }
        while openStreams > 0 { condition.wait() }
        return Tool.Result(
            status: process.terminationStatus,
            stdout: collectedLines.joined(separator: "\n"),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Reads `handle` on a thread of its own until the end of file.
    private func read(_ handle: FileHandle, isOutput: Bool) {
        condition.lock()
        openStreams += 1
        condition.unlock()
        Thread { [self] in
            while true {
                let data = handle.availableData
                condition.lock()
                if data.isEmpty {
                    openStreams -= 1
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                if isOutput {
                    partialLine.append(data)
                    while let newline = partialLine.firstIndex(of: UInt8(ascii: "\n")) {
                        collectedLines.append(String(decoding: partialLine[partialLine.startIndex..<newline], as: UTF8.self))
                        partialLine.removeSubrange(partialLine.startIndex...newline)
                    }
                } else {
                    errorData.append(data)
                }
                condition.broadcast()
                condition.unlock()
            }
        }.start()
    }
}
