import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the command of a ``KeyEncryptionKey/command(_:timeout:)`` and reads
/// the key it prints.
enum KeyCommand {
    /// What a key command may print: a key and some white space.
    static let maximumOutputLength = 4096

    /// Runs `arguments` without a shell and returns the 32 bytes whose 64
    /// hexadecimal digits it printed.
    ///
    /// The command is spawned directly (`posix_spawn`), its standard input
    /// is `/dev/null`, and its output is read until it ends, or until a
    /// moment after the command exited: a process that the command left in
    /// the background (`sleep 75 &` in a wrapper script) may keep the output
    /// open, and is not waited for. `timeout` bounds the whole call.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.keyCommandFailed`) if the
    ///   command cannot start, exits with a failure, outlives `timeout`, or
    ///   prints something else. The output is never quoted.
    static func run(_ arguments: [String], timeout: Duration) throws -> KeyMaterial {
        guard let program = arguments.first, !program.isEmpty else {
            throw DatabaseEnvelopeError(.keyCommandFailed, "the key command is empty")
        }
        // `env` finds the program in PATH, as a shell would, without a shell.
        let argv = program.contains("/") ? arguments : ["/usr/bin/env"] + arguments
        var pipeEnds: [CInt] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            throw DatabaseEnvelopeError(.keyCommandFailed, "the key command \(program) could not start: no pipe")
        }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }
        let pid: pid_t
        do {
            pid = try spawn(argv, output: writeEnd, closing: readEnd)
        } catch {
            close(writeEnd)
            throw DatabaseEnvelopeError(.keyCommandFailed, "the key command \(program) could not start")
        }
        close(writeEnd)
        let child = ChildStatus(pid: pid)
        defer { child.reap() }

        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = DispatchTime.now() + seconds
        var output: [UInt8] = []
        defer { output.withUnsafeMutableBytes { secureZero($0) } }
        switch read(readEnd, into: &output, child: child, deadline: deadline) {
        case .timedOut:
            child.stop()
            throw DatabaseEnvelopeError(.keyCommandFailed, "the key command \(program) did not finish within \(timeout)")
        case .tooLong:
            child.stop()
            throw DatabaseEnvelopeError(.keyCommandFailed, "the key command \(program) printed more than a key")
        case .ended:
            guard child.waitForExit(until: deadline) else {
                child.stop()
                throw DatabaseEnvelopeError(.keyCommandFailed, "the key command \(program) did not finish within \(timeout)")
            }
        }
        guard let status = child.exitStatus, status == 0 else {
            throw DatabaseEnvelopeError(
                .keyCommandFailed, "the key command \(program) failed with status \(child.exitStatus ?? -1)")
        }
        guard let key = output.withUnsafeBytes({ Self.parseHexKey($0) }) else {
            throw DatabaseEnvelopeError(
                .keyCommandFailed, "the key command \(program) did not print a key (64 hexadecimal digits)")
        }
        return key
    }

    private enum ReadOutcome {
        /// The output ended, or the command exited a moment ago.
        case ended
        case tooLong
        case timedOut
    }

    /// Reads `descriptor` into `output` until its end, until the command has
    /// exited for a moment with nothing more to read, or until `deadline`.
    private static func read(
        _ descriptor: CInt, into output: inout [UInt8], child: ChildStatus, deadline: DispatchTime
    ) -> ReadOutcome {
        var chunk = [UInt8](repeating: 0, count: 512)
        defer { chunk.withUnsafeMutableBytes { secureZero($0) } }
        var exitedAt: DispatchTime?
        while true {
            let now = DispatchTime.now()
            if now >= deadline { return .timedOut }
            if exitedAt == nil, child.hasExited() { exitedAt = now }
            if let exitedAt, now >= exitedAt + 0.2 { return .ended }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 20)
            if ready < 0 {
                if errno == EINTR { continue }
                return .ended
            }
            guard ready > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .ended
            }
            if count == 0 { return .ended }
            output.append(contentsOf: chunk[0..<count])
            if output.count > maximumOutputLength { return .tooLong }
        }
    }

    /// Starts `argv` with `/dev/null` as standard input and `output` as
    /// standard output; standard error is this process's.
    private static func spawn(_ argv: [String], output: CInt, closing readEnd: CInt) throws -> pid_t {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addclose(&actions, output)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard code == 0 else { throw DatabaseEnvelopeError(.keyCommandFailed, "posix_spawn failed") }
        return pid
    }
}

/// read(2), which `KeyCommand.read` hides.
private func systemRead(_ descriptor: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// A spawned key command: whether it exited, its status, and its end.
private final class ChildStatus {
    let pid: pid_t
    private(set) var exitStatus: CInt?
    private var reaped = false

    init(pid: pid_t) {
        self.pid = pid
    }

    /// Whether the command exited (reaped at once, without blocking).
    func hasExited() -> Bool {
        if reaped { return true }
        var status: CInt = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid || (result < 0 && errno == ECHILD) else { return false }
        reaped = true
        // WIFEXITED and WEXITSTATUS, which Swift cannot import.
        exitStatus = result == pid && (status & 0x7F) == 0 ? (status >> 8) & 0xFF : nil
        return true
    }

    /// Waits until the command exits, or `deadline`. Returns whether it exited.
    func waitForExit(until deadline: DispatchTime) -> Bool {
        while !hasExited() {
            if DispatchTime.now() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Asks the command to stop, then kills it.
    func stop() {
        guard !hasExited() else { return }
        kill(pid, SIGTERM)
        if !waitForExit(until: .now() + 2) { kill(pid, SIGKILL) }
    }

    /// Reaps the command, killed first if it still runs: no zombie is left.
    func reap() {
        guard !reaped else { return }
        stop()
        if !reaped {
            var status: CInt = 0
            waitpid(pid, &status, 0)
            reaped = true
        }
    }
}

extension KeyCommand {
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
