import Foundation
import Testing

/// Core's extension slots hold values of upper layers behind small
/// protocols, and those layers read them back with `unsafeDowncast`
/// (checked in debug builds only). The invariant that makes the casts safe
/// in release builds: each slot protocol is adopted by one class, the one
/// its readers cast to.
@Suite struct ExtensionSlotTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/GRDBCipher")

    /// Each slot protocol, and the one class that may adopt it.
    private static let slots: [String: String] = [
        "RowDecodingCache": "KeyedDecodingContainerCache",
        "StatementDecodingCache": "CodingKeyColumnTables",
        "SchemaCompiledPlans": "RecordPlans",
        "DatabaseStatementListener": "DatabaseObservationBroker",
        "StatementDeletionObserver": "DatabaseObservationBroker",
    ]

    @Test func eachSlotProtocolIsAdoptedByOneClass() throws {
        var adopters: [String: [String]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
        for case let file as URL in enumerator where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            // `final class X: A, B {` and `extension X: A, B {` declarations.
            for match in source.matches(of: /(?m)^(?:final class|class|struct|enum|actor|extension)\s+([A-Za-z0-9_]+)(?:<[^>]*>)?\s*:\s*([^{]+)\{/) {
                let conformances = match.output.2.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                for slot in Self.slots.keys where conformances.contains(slot) {
                    adopters[slot, default: []].append(String(match.output.1))
                }
            }
        }
        for (slot, owner) in Self.slots {
            #expect(adopters[slot] == [owner], "\(slot) is adopted by \(adopters[slot] ?? []), not by \(owner) alone")
        }
    }
}
