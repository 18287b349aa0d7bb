import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `GRDBCipherFaultChild`: its standard output is collected line by
/// line as it arrives, its standard error is kept for failure messages, and
/// its standard input stays open until ``closeStdin()``.
///
/// ```swift
/// let child = try ChildProcess(["writer-loop", "--path", path, "--key", "secret"])
/// _ = child.waitForLine(prefix: "ACK")
/// child.kill9()
/// ```
final class ChildProcess {
    private let process = Process()
    private let input = Pipe()
    private let streams = Streams()
    let arguments: [String]

    /// The child executable: beside the test binary, or in `.build/debug`.
    static let executableURL: URL = {
        var candidates: [URL] = []
        #if os(Linux)
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(testBinary.deletingLastPathComponent())
        #endif
        if let path = Bundle.main.executablePath {
            candidates.append(URL(fileURLWithPath: path).deletingLastPathComponent())
        }
        // An .xctest bundle on macOS: the products folder is above it.
        candidates.append(contentsOf: Bundle.allBundles
            .filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() })
        candidates.append(URL(fileURLWithPath: ".build/debug", isDirectory: true))
        let executables = candidates.map { $0.appendingPathComponent("GRDBCipherFaultChild") }
        return executables.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? executables.last!
    }()

    /// Starts the child with `arguments` (the command first).
    init(_ arguments: [String]) throws {
        self.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.executableURL = Self.executableURL
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The readers see the end of file once the child is gone: Process
        // closes the child's ends of the pipes in this process.
        streams.startReading(output.fileHandleForReading, isOutput: true)
        streams.startReading(errors.fileHandleForReading, isOutput: false)
    }

    deinit {
        // A test that fails early must not leave a child running.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The process identifier.
    var processIdentifier: Int32 { process.processIdentifier }

    /// The lines printed so far.
    var output: [String] { streams.lines }

    /// The end of what the child wrote to standard error.
    var errorOutput: String { streams.errorText }

    /// What a failure message needs: the command, its output, and the end of its standard error.
    var transcript: String {
        let errors = errorOutput
        return "`\(arguments.joined(separator: " "))` printed \(output)"
            + (errors.isEmpty ? "" : ", stderr ends with: \(errors.suffix(1_500))")
    }

    /// Waits until a line starting with `prefix` has been printed, and
    /// returns the first such line; nil if none came within `timeout`
    /// seconds, or the child closed its output without printing one.
    func waitForLine(prefix: String, timeout: TimeInterval = 60) -> String? {
        streams.waitForLine(prefixes: [prefix], timeout: timeout)
    }

    /// Waits until a line starting with one of `prefixes` has been printed;
    /// see ``waitForLine(prefix:timeout:)``.
    func waitForLine(prefixes: [String], timeout: TimeInterval = 60) -> String? {
        streams.waitForLine(prefixes: prefixes, timeout: timeout)
    }

    /// Kills the child with SIGKILL, which it cannot catch, and waits until it is gone.
    func kill9() {
        // Once reaped, the identifier could belong to another process.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        waitUntilExit()
    }

    /// Writes `line` and a newline to the child's standard input. A child
    /// that is gone reads nothing, and the test goes on (no SIGPIPE).
    func send(_ line: String) {
        Self.ignoreBrokenPipes
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    /// Closes the child's standard input: it reads the end of file.
    func closeStdin() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits until the child has ended and all its output has been read, and
    /// returns its exit status, or the number of the signal that ended it, negated.
    @discardableResult
    func waitUntilExit() -> Int32 {
        process.waitUntilExit()
        closeStdin()
        streams.waitForEndOfFiles(timeout: 60)
        switch process.terminationReason {
        case .exit: return process.terminationStatus
        case .uncaughtSignal: return -process.terminationStatus
        @unknown default: return process.terminationStatus
        }
    }
}

/// The child's standard output, in lines, and the end of its standard
/// error, filled by one reader thread per stream.
private final class Streams: @unchecked Sendable {
    // Safe: every stored property is only touched while `condition` is locked.
    private let condition = NSCondition()
    private var outputLines: [String] = []
    private var partialLine = Data()
    private var errorData = Data()
    private var openCount = 0

    /// Standard error keeps this many bytes, the last ones.
    private static let errorLimit = 16_384

    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return outputLines
    }

    var errorText: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: errorData, as: UTF8.self)
    }

    /// Reads `handle` on a thread of its own until the end of file, then closes it.
    func startReading(_ handle: FileHandle, isOutput: Bool) {
        condition.lock()
        openCount += 1
        condition.unlock()
        let thread = Thread { [self] in
            let descriptor = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                receive(buffer[..<count], isOutput: isOutput)
            }
            try? handle.close()
            condition.lock()
            openCount -= 1
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    private func receive(_ bytes: ArraySlice<UInt8>, isOutput: Bool) {
        condition.lock()
        defer { condition.unlock() }
        guard isOutput else {
            errorData.append(contentsOf: bytes)
            if errorData.count > Self.errorLimit { errorData.removeFirst(errorData.count - Self.errorLimit) }
            return
        }
        partialLine.append(contentsOf: bytes)
        while let newline = partialLine.firstIndex(of: UInt8(ascii: "\n")) {
            outputLines.append(String(decoding: partialLine[partialLine.startIndex..<newline], as: UTF8.self))
            partialLine.removeSubrange(partialLine.startIndex...newline)
        }
        condition.broadcast()
    }

    func waitForLine(prefixes: [String], timeout: TimeInterval) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = outputLines.first(where: { line in prefixes.contains { line.hasPrefix($0) } }) { return line }
            if openCount == 0 || !condition.wait(until: deadline) { return nil }
        }
    }

    func waitForEndOfFiles(timeout: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while openCount > 0, condition.wait(until: deadline) {}
        condition.unlock()
    }
}
