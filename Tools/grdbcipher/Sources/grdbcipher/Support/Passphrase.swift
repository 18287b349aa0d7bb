import Foundation
import GRDBCipher

/// Where a passphrase comes from. Never a command-line argument: those show
/// in `ps` and in shell histories.
enum PassphraseSource {
    /// A file whose first line is the passphrase; `-` is standard input.
    case file(String)
    /// An environment variable.
    case environment(String)
    /// A prompt on the terminal, without echo; `confirm` asks twice.
    case prompt(String, confirm: Bool)
}

/// Reads passphrases as bytes and turns them into keys. The bytes are zeroed
/// once the key holds its own copy.
enum Passphrase {
    /// The variable that holds the key of the encrypted side.
    static let environmentVariable = "GRDBCIPHER_PASSPHRASE"
    /// The variable that holds the new key of `rekey` and `export`.
    static let newEnvironmentVariable = "GRDBCIPHER_NEW_PASSPHRASE"

    /// Whether the environment variable is set.
    static func hasEnvironmentValue(_ name: String) -> Bool {
        ProcessInfo.processInfo.environment[name] != nil
    }

    /// The first source that is available, in this order: the file option,
    /// the environment variable, a prompt when standard input is a terminal.
    ///
    /// - throws: A usage ``ToolError`` when none is.
    static func source(file: String?, environment: String, prompt: String, confirm: Bool) throws -> PassphraseSource {
        if let file { return .file(file) }
        if hasEnvironmentValue(environment) { return .environment(environment) }
        if Terminal.standardInputIsTerminal { return .prompt(prompt, confirm: confirm) }
        throw ToolError(
            .usage,
            "no passphrase: set \(environment), pass a passphrase file, or run in a terminal to be asked")
    }

    /// The key read from `source`.
    ///
    /// - throws: A usage ``ToolError`` for an empty passphrase, an unreadable
    ///   file, or two prompted passphrases that differ.
    static func key(from source: PassphraseSource, isRawKey: Bool = false) throws -> DatabaseKey {
        var bytes = try read(source)
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        guard !bytes.isEmpty else {
            throw ToolError(.usage, "the passphrase from \(describe(source)) is empty")
        }
        if isRawKey { return try rawKey(fromHex: bytes, source: source) }
        return .passphrase(bytes)
    }

    /// A raw key written in hex: 64 digits (the 32-byte key), or 96 (the key
    /// then the file's 16-byte salt), bare or as SQLCipher's `x'…'` literal.
    ///
    /// - throws: A usage ``ToolError`` that never quotes the text.
    private static func rawKey(fromHex text: Data, source: PassphraseSource) throws -> DatabaseKey {
        var digits = text.filter { !($0 == 0x20 || $0 == 0x09) }
        defer { digits.resetBytes(in: 0..<digits.count) }
        if digits.count >= 3, digits.first == UInt8(ascii: "x") || digits.first == UInt8(ascii: "X"),
           digits.dropFirst().first == UInt8(ascii: "'"), digits.last == UInt8(ascii: "'")
        {
            digits = Data(digits.dropFirst(2).dropLast())
        }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes = Data()
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(after: index)
            guard next < digits.endIndex, let high = value(digits[index]), let low = value(digits[next]) else {
                bytes.resetBytes(in: 0..<bytes.count)
                throw ToolError(.usage, "the raw key from \(describe(source)) is not hexadecimal")
            }
            bytes.append(high << 4 | low)
            index = digits.index(after: next)
        }
        switch bytes.count {
        case 32: return try DatabaseKey.rawKey(bytes)
        case 48: return try DatabaseKey.rawKey(bytes.prefix(32), salt: bytes.suffix(16))
        default:
            throw ToolError(
                .usage, "the raw key from \(describe(source)) must be 64 hex digits, or 96 with the salt")
        }
    }

    private static func read(_ source: PassphraseSource) throws -> Data {
        switch source {
        case let .file(path):
            if path == "-" {
                guard let line = StandardInputLines.shared.next() else {
                    throw ToolError(.usage, "no passphrase on standard input")
                }
                return line
            }
            // read(2) to the first line break, not to the size the file
            // system states: a pipe (`--passphrase-file <(pass show db)`)
            // states none. The buffers are the tool's own, zeroed.
            guard let line = SecretFile.firstLine(atPath: path) else {
                throw ToolError(.usage, "cannot read the passphrase file \(path)")
            }
            return line
        case let .environment(name):
            return Data((ProcessInfo.processInfo.environment[name] ?? "").utf8)
        case let .prompt(prompt, confirm):
            var first = try Terminal.readWithoutEcho(prompt: prompt + ": ")
            guard confirm else { return first }
            var second = try Terminal.readWithoutEcho(prompt: "Again, to confirm: ")
            defer { second.resetBytes(in: 0..<second.count) }
            guard first == second else {
                first.resetBytes(in: 0..<first.count)
                throw ToolError(.usage, "the two passphrases differ")
            }
            return first
        }
    }

    /// The bytes before the first line break (`\n` or `\r\n`).
    static func firstLine(of data: Data) -> Data {
        var line = data.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return Data(line)
    }

    private static func describe(_ source: PassphraseSource) -> String {
        switch source {
        case let .file(path): return path == "-" ? "standard input" : path
        case let .environment(name): return name
        case .prompt: return "the prompt"
        }
    }
}

/// Standard input, read once, line by line: `rekey --passphrase-file -
/// --new-passphrase-file -` takes the current passphrase from the first line
/// and the new one from the second.
final class StandardInputLines: @unchecked Sendable {  // safe: only touched under `lock`
    static let shared = StandardInputLines()

    private let lock = NSLock()
    private var lines: [Data]?

    /// The next line, without its line break, or nil at the end of input.
    func next() -> Data? {
        lock.lock()
        defer { lock.unlock() }
        if lines == nil {
            var all = FileHandle.standardInput.readDataToEndOfFile()
            defer { all.resetBytes(in: 0..<all.count) }
            lines = all.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
                Data($0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0)
            }
        }
        guard let first = lines?.first else { return nil }
        lines?.removeFirst()
        return first
    }
}
