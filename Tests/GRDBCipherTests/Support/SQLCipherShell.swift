import Foundation

/// Runs the `sqlcipher` command-line shell, an independent peer that checks
/// what GRDBCipher writes and writes what GRDBCipher must read.
enum SQLCipherShell {
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        let output: String
        var description: String { "sqlcipher exited with \(status): \(output)" }
    }

    /// Runs `script` on the database at `path` and returns standard output.
    /// The script should start with `PRAGMA key = '...';` for encrypted files.
    /// Throws if the shell exits with an error or writes to standard error.
    @discardableResult
    static func run(_ path: String, _ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executablePath())
        process.arguments = ["-batch", "-bail", path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stdout = String(decoding: outputData, as: UTF8.self)
        let stderr = String(decoding: errorData, as: UTF8.self)
        if process.terminationStatus != 0 || stderr.contains("Error") {
            throw Failure(status: process.terminationStatus, output: stdout + stderr)
        }
        return stdout
    }

    static func executablePath() throws -> String {
        for directory in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let path = directory + "/sqlcipher"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Failure(status: -1, output: "the sqlcipher shell is not installed: run scripts/install-deps")
    }
}
