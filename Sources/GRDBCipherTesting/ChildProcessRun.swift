import Foundation

/// One run of a child process: its standard input written and closed, its
/// output and errors read to their end on threads of their own (never on
/// Dispatch's shared threads, which a busy test process may all hold).
struct ChildProcessRun {
    let status: Int32
    let output: Data
    let errors: Data

    init(executable: String, arguments: [String], input: Data) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        let output = PipeReader(outputPipe.fileHandleForReading)
        let errors = PipeReader(errorPipe.fileHandleForReading)
        try? inputPipe.fileHandleForWriting.write(contentsOf: input)
        try? inputPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        status = process.terminationStatus
        self.output = output.waitForEnd()
        self.errors = errors.waitForEnd()
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {   // safe: `data` is written before `done` is signalled, read after
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
