import Foundation
import Synchronization

/// The built `VaporTodo` executable, run as a child process.
final class AppProcess: Sendable {
    let process: Process
    private let output = OutputBuffer()

    /// The `VaporTodo` binary beside the test bundle (SwiftPM builds it
    /// because the test target depends on it).
    static var executablePath: String {
        get throws {
            let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            var candidates = [folder.appendingPathComponent("VaporTodo").path]
            for bundle in Bundle.allBundles {
                candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("VaporTodo").path)
            }
            #if os(Linux)
            let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            candidates.append(exe.appendingPathComponent("VaporTodo").path)
            #endif
            guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw ProcessFailure(message: "VaporTodo binary not found in \(candidates)")
            }
            return path
        }
    }

    /// Starts the application with `arguments` and exactly this environment (plus PATH).
    init(arguments: [String], environment: [String: String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.executablePath)
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
            if data.isEmpty {
                // End of file: the process and its children closed the pipe.
                handle.readabilityHandler = nil
                output.ended.withLock { $0 = true }
            } else {
                output.data.withLock { $0.append(data) }
            }
        }
        try process.run()
    }

    /// Everything the process wrote so far (standard output and error).
    var text: String { output.data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits until the output contains `needle`, or throws after `seconds`.
    func waitForOutput(_ needle: String, seconds: Double = 30) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while !text.contains(needle) {
            guard process.isRunning, Date() < deadline else {
                throw ProcessFailure(message: "no \"\(needle)\" in the output:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return text
    }

    /// Waits for the process to exit and returns its status.
    func waitForExit(seconds: Double = 30) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw ProcessFailure(message: "the application did not exit; output:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // The last bytes of the pipe may arrive after the exit.
        let drained = Date().addingTimeInterval(5)
        while !output.ended.withLock({ $0 }), Date() < drained {
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// What the process wrote, shared with the pipe's handler.
private final class OutputBuffer: Sendable {
    let data = Mutex(Data())
    let ended = Mutex(false)
}

struct ProcessFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
