import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDBCipherTesting

/// An `sqlcipher` shell that keeps its connection open and runs the
/// statements the test sends: another process using the database. It stops
/// at the first error (`-bail`), so a line it prints after a statement
/// proves that the statement succeeded. Its output is collected line by
/// line, and the test waits for a line, never for a time.
///
/// ```swift
/// let other = try ShellSession(path)
/// other.send("PRAGMA key = 'secret';\nINSERT INTO t VALUES (1);\nSELECT 'ack 1';")
/// #expect(other.waitForLine("ack 1") != nil)
/// ```
final class ShellSession: @unchecked Sendable {   // safe: the collected output is only touched with `condition` locked
    private let condition = NSCondition()
    private var collectedLines: [String] = []
    private var partialLine = Data()
    private var errorData = Data()
    private var openStreams = 0
    private let process = Process()
    private let input = Pipe()

    /// Starts the shell on the database at `path`. The key goes through
    /// standard input, with ``send(_:)``, never in the arguments.
    init(_ path: String) throws {
        signal(SIGPIPE, SIG_IGN)
        guard let executable = SQLCipherShell.executablePath else {
            throw EncryptionCheck.Unavailable(reason: "the sqlcipher shell is not installed: run scripts/install-deps")
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-batch", "-bail", path]
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        read(output.fileHandleForReading, isOutput: true)
        read(errors.fileHandleForReading, isOutput: false)
    }

    deinit {
        // A test that fails early must not leave the shell behind.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The lines printed so far.
    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return collectedLines
    }

    /// What the shell wrote to standard error so far.
    var errorOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: errorData, as: UTF8.self)
    }

    /// Writes `script` and a line break to the shell. A shell that is gone
    /// reads nothing, and the test goes on.
    func send(_ script: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((script + "\n").utf8))
    }

    /// The first line that starts with `prefix`, once printed; nil if the
    /// shell ended first, or after `timeout` seconds (a safety net for a
    /// hung shell, not a measure of anything).
    func waitForLine(_ prefix: String, timeout: TimeInterval = 120) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = collectedLines.first(where: { $0.hasPrefix(prefix) }) { return line }
            if openStreams == 0 || !condition.wait(until: deadline) { return nil }
        }
    }

    /// Ends the shell (end of its input) and waits until it is gone and its
    /// output read; returns its exit status.
    @discardableResult
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        condition.lock()
        defer { condition.unlock() }
        while openStreams > 0 { condition.wait() }
        return process.terminationStatus
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
                defer {
                    condition.broadcast()
                    condition.unlock()
                }
                if data.isEmpty {
                    openStreams -= 1
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
            }
        }.start()
    }
}
