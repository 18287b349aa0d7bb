import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Removes the secrets the server was given through its environment.
///
/// On Linux, `/proc/<pid>/environ` shows the environment block the process
/// started with: the bytes the kernel copied at `exec`, not the process's
/// current variables. `unsetenv` only removes a pointer from `environ`, and
/// `/proc/<pid>/environ` keeps showing the value. This type overwrites the
/// `NAME=value` bytes in that block with zero bytes, in place: the block
/// lies in the process's own writable memory, at the addresses the kernel
/// reports in `/proc/self/stat` (`env_start`, `env_end`), and
/// `/proc/<pid>/environ` reads it there.
///
/// What it cannot scrub:
/// - what others saw before: a reader of `/proc/<pid>/environ` between the
///   `exec` and the scrub (a few milliseconds at start-up);
/// - the environment of other processes: the shell or service manager that
///   set the variable keeps it (and shows it to its children and in its own
///   `/proc/<pid>/environ`), a unit file or a container definition holds it;
/// - the length of the entry, which stays visible as a run of zero bytes;
/// - the copies in the server's heap, which it needs to open connections
///   (the passphrase) or to check requests (the token): readable by a
///   process that may trace this one (root, or the same user unless the
///   system restricts `ptrace`), and by a core dump;
/// - anything on systems without `/proc/self/stat`'s addresses: there, the
///   variables are only removed with `unsetenv`.
///
/// A secret file (`GRDBCIPHER_PASSPHRASE_FILE`) has none of these problems
/// but the heap copy: prefer it.
public enum SecretEnvironment {
    /// The variables that hold secrets: the passphrase and the tokens.
    public static let names = ["GRDBCIPHER_PASSPHRASE", "TODOSERVER_ADMIN_TOKEN", "TODOSERVER_EVENTS_TOKEN"]

    /// What ``scrub(_:)`` did.
    public struct Outcome: Sendable, Equatable {
        /// The variables that were set, now removed from the environment.
        public var removed: [String] = []
        /// The variables whose bytes were overwritten in the start-up block.
        public var overwritten: [String] = []
    }

    /// Removes `names` from the environment (`unsetenv`), and overwrites
    /// their entries in the start-up environment block where the system
    /// allows it. Call it once the values are read: getenv returns nil for
    /// them afterwards.
    @discardableResult
    public static func scrub(_ names: [String] = names) -> Outcome {
        var outcome = Outcome()
        for name in names where getenv(name) != nil {
            unsetenv(name)
            outcome.removed.append(name)
        }
        #if os(Linux)
        if let block = startupBlock() {
            outcome.overwritten = overwrite(names, in: block)
        }
        #endif
        return outcome
    }

    #if os(Linux)
    /// The start-up environment block: `env_start` and `env_end`, fields 50
    /// and 51 of `/proc/self/stat`.
    private static func startupBlock() -> UnsafeMutableRawBufferPointer? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command name in parentheses, fields count from 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 48, let start = UInt(fields[47]), let end = UInt(fields[48]),
              start > 0, end > start, end - start < 4 << 20,
              let base = UnsafeMutableRawPointer(bitPattern: start)
        else { return nil }
        return UnsafeMutableRawBufferPointer(start: base, count: Int(end - start))
    }

    /// Zeroes each `NAME=…` entry of `names` in `block`; returns the names found.
    private static func overwrite(_ names: [String], in block: UnsafeMutableRawBufferPointer) -> [String] {
        let prefixes = names.map { (name: $0, bytes: Array("\($0)=".utf8)) }
        var found: [String] = []
        var start = 0
        while start < block.count {
            var end = start
            while end < block.count, block[end] != 0 { end += 1 }
            for prefix in prefixes where end - start >= prefix.bytes.count
                && prefix.bytes.indices.allSatisfy({ block[start + $0] == prefix.bytes[$0] })
            {
                for index in start..<end { block[index] = 0 }
                if !found.contains(prefix.name) { found.append(prefix.name) }
                break
            }
            start = end + 1
        }
        return found
    }
    #endif
}
