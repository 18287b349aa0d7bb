import Foundation

/// Runs the command of a ``KeyEncryptionKey/command(_:timeout:)`` and reads
/// the key it prints.
enum KeyCommand {
    /// Runs `arguments` without a shell and returns the 32 bytes whose 64
    /// hexadecimal digits it printed.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.keyCommandFailed`) if the
    ///   command cannot start, exits with a failure, outlives `timeout`, or
    ///   prints something else. The output is never quoted.
    static func run(_ arguments: [String], timeout: Duration) throws -> KeyMaterial {
        guard let program = arguments.first, !program.isEmpty else {
            throw DatabaseEnvelopeError(.keyCommandFailed, "the key command is empty")
        }
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(arguments.dropFirst())
        } else {
            // `env` finds the program in PATH, as a shell would, without a shell.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            throw DatabaseEnvelopeError(.keyCommandFailed, "the key command \(program) could not start")
        }
        // Read while the command runs: a full pipe would block it.
        let reading = DispatchGroup()
        let captured = CapturedOutput()
        DispatchQueue.global().async(group: reading) {
            captured.data = output.fileHandleForReading.readDataToEndOfFile()
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + 2) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            reading.wait()
            captured.wipe()
            throw DatabaseEnvelopeError(.keyCommandFailed, "the key command \(program) did not finish within \(timeout)")
        }
        reading.wait()
        defer { captured.wipe() }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw DatabaseEnvelopeError(
                .keyCommandFailed, "the key command \(program) failed with status \(process.terminationStatus)")
        }
        guard let key = captured.data.withUnsafeBytes({ Self.parseHexKey($0) }) else {
            throw DatabaseEnvelopeError(
                .keyCommandFailed, "the key command \(program) did not print a key (64 hexadecimal digits)")
        }
        return key
    }

    /// The 32 bytes of 64 hexadecimal digits surrounded by white space.
    static func parseHexKey(_ text: UnsafeRawBufferPointer) -> KeyMaterial? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
              let last = text.lastIndex(where: { !isSpace($0) }),
              last - first + 1 == 2 * EnvelopeCrypto.keyLength
        else { return nil }
        let key = UnsafeMutableRawBufferPointer.allocate(byteCount: EnvelopeCrypto.keyLength, alignment: 1)
        defer {
            secureZero(key)
            key.deallocate()
        }
        func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        for index in 0..<EnvelopeCrypto.keyLength {
            guard let high = nibble(text[first + 2 * index]), let low = nibble(text[first + 2 * index + 1]) else {
                return nil
            }
            key[index] = high << 4 | low
        }
        return KeyMaterial(copying: UnsafeRawBufferPointer(key))
    }
}

/// The output of a key command, zeroed once read.
private final class CapturedOutput: @unchecked Sendable {
    // Safe: written by the reading thread, read after `reading.wait()`.
    var data = Data()

    func wipe() {
        data.withUnsafeMutableBytes { secureZero($0) }
        data = Data()
    }
}
