import Logging
import Synchronization

/// A log handler that keeps every message with its metadata, for tests that
/// wait for the server to tell what it did.
struct CapturingLogHandler: LogHandler {
    /// The lines logged through every copy of the handler.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])

        func append(_ line: String) { lines.withLock { $0.append(line) } }

        /// Whether a line contains `text`.
        func contain(_ text: String) -> Bool { lines.withLock { $0.contains { $0.contains(text) } } }

        /// Waits (at most `seconds`) for a line that contains `text`.
        func waitFor(_ text: String, seconds: Int = 30) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while !contain(text), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            return contain(text)
        }
    }

    let lines: Lines
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        lines.append("\(event.level) \(fields) \(event.message)")
    }

    /// A logger whose lines go to `lines`.
    static func logger(_ lines: Lines) -> Logger {
        Logger(label: "TodoServerTests") { _ in CapturingLogHandler(lines: lines) }
    }
}
