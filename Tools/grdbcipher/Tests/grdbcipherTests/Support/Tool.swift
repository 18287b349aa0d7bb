import Foundation

/// The built `grdbcipher` binary, run as a process.
enum Tool {
    /// What one run produced.
    struct Result: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String

        var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    /// The binary: beside the test binary (Linux), above the .xctest
    /// bundle (macOS), or in `.build/debug` of the tool's package.
    static let executableURL: URL = {
        var folders: [URL] = []
        #if os(Linux)
        folders.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        #endif
        if let path = Bundle.main.executablePath {
            folders.append(URL(fileURLWithPath: path).deletingLastPathComponent())
        }
        folders += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        let packageFolder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(packageFolder.appendingPathComponent(".build/debug"))
        let candidates = folders.map { $0.appendingPathComponent("grdbcipher") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    /// Runs `grdbcipher` with `arguments`, the given environment variables
    /// (added to a clean environment: no passphrase leaks in from the caller),
    /// and `stdin` as standard input (empty when nil, never a terminal).
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        var base = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GRDBCIPHER_") }
        base.merge(environment) { _, new in new }
        process.environment = base
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data((stdin ?? "").utf8))
        try input.fileHandleForWriting.close()
        // Read both pipes at once (a full pipe would block the child), on a
        // thread of its own: Dispatch's shared threads may all be taken by
        // tests that wait.
        let errorReader = PipeReader(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorReader.waitForEnd()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {   // safe: `data` is written before `done` is signalled, read after
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func waitForEnd() -> Data {
        done.wait()
        return data
    }
}
