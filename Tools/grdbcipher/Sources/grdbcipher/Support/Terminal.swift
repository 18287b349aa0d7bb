import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal: whether the standard streams are one, and a prompt that
/// does not echo what is typed.
enum Terminal {
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The terminal settings to restore if the user interrupts the prompt.
    nonisolated(unsafe) private static var savedSettings = termios()
    nonisolated(unsafe) private static var savedDescriptor: CInt = -1

    /// Writes `prompt` to the terminal and reads one line from it with echo
    /// turned off; echo comes back even when the user presses Control-C.
    ///
    /// - throws: A usage ``ToolError`` when there is no terminal.
    static func readWithoutEcho(prompt: String) throws -> Data {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ToolError(.usage, "no terminal to ask for a passphrase")
        }
        defer { close(descriptor) }
        _ = prompt.withCString { write(descriptor, $0, strlen($0)) }

        var original = termios()
        let hasSettings = tcgetattr(descriptor, &original) == 0
        if hasSettings {
            savedSettings = original
            savedDescriptor = descriptor
            signal(SIGINT) { signal in
                // Only async-signal-safe calls here.
                _ = tcsetattr(Terminal.savedDescriptor, TCSAFLUSH, &Terminal.savedSettings)
                _exit(128 + signal)
            }
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            silent.c_lflag |= tcflag_t(ECHONL)
            _ = tcsetattr(descriptor, TCSAFLUSH, &silent)
        }
        defer {
            if hasSettings {
                _ = tcsetattr(descriptor, TCSAFLUSH, &original)
                signal(SIGINT, SIG_DFL)
                savedDescriptor = -1
            }
        }

        var line = Data()
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        byte = 0
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }
}
