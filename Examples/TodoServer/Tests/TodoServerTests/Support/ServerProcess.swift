import Foundation
import Synchronization

/// The built `TodoServer` executable, run as a child process.
final class ServerProcess: Sendable {
    let process: Process
    private let output = OutputBuffer()

    /// The `TodoServer` binary beside the test bundle (SwiftPM builds it
    /// because the test target depends on it).
    static var executablePath: String {
        get throws {
            let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            var candidates = [folder.appendingPathComponent("TodoServer").path]
            for bundle in Bundle.allBundles {
                candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("TodoServer").path)
            }
            guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw ProcessFailure(message: "TodoServer binary not found in \(candidates)")
            }
            return path
        }
    }

    /// Starts the server with exactly this environment (plus PATH), and the
    /// file mode creation mask `umask` if given (through `/bin/sh`, which
    /// then replaces itself with the server).
    convenience init(environment: [String: String], umask: String? = nil) throws {
        if let umask {
            try self.init(
                executable: "/bin/sh", arguments: ["-c", "umask \(umask) && exec \"$0\"", try Self.executablePath],
                environment: environment)
        } else {
            try self.init(executable: try Self.executablePath, arguments: [], environment: environment)
        }
    }

    /// Starts `executable` with exactly this environment (plus PATH).
    init(executable: String, arguments: [String], environment: [String: String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = self.output
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            output.data.withLock { $0.append(data) }
        }
        try process.run()
    }

    /// The resident memory of the process, in bytes (`VmRSS` in `/proc/<pid>/status`).
    var residentMemory: Int {
        get throws {
            let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                  let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            else { throw ProcessFailure(message: "no VmRSS in /proc/\(process.processIdentifier)/status") }
            return kilobytes * 1024
        }
    }

    /// Everything the process wrote so far (standard output and error).
    var text: String { output.data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits for the process to exit and returns its status.
    func waitForExit(seconds: Double = 30) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard Date() < deadline else {
                process.interrupt()
                throw ProcessFailure(message: "the server did not exit; output:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(50)) // the last output
        return process.terminationStatus
    }

    /// Waits until the server logs the port it listens on.
    func waitForPort(seconds: Double = 60) async throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        let marker = "listening on http://127.0.0.1:"
        while Date() < deadline {
            let text = self.text
            if let range = text.range(of: marker) {
                let digits = text[range.upperBound...].prefix(while: \.isNumber)
                if let port = Int(digits), text[range.upperBound...].count > digits.count { return port }
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ProcessFailure(message: "the server did not start; output:\n\(text)")
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

struct ProcessFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// What a child process wrote, filled from the pipe's reading thread.
final class OutputBuffer: Sendable {
    let data = Mutex(Data())
}
