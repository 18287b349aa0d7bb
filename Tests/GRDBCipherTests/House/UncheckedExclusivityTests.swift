import Foundation
import Testing

/// Every `@exclusivity(unchecked)` states, where it stands, why no access
/// can overlap: a comment starting `Unchecked` in the eight lines above it
/// (one comment may cover a group of fields).
@Suite struct UncheckedExclusivityTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/GRDBCipher")

    @Test func everyUncheckedExclusivityStatesItsReason() throws {
        var count = 0
        var missing: [String] = []
        let enumerator = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
        for case let file as URL in enumerator where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated()
            where line.contains("@exclusivity(unchecked)") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                count += 1
                let above = lines[max(0, index - 8)..<index]
                if !above.contains(where: { $0.contains("// Unchecked") }) {
                    missing.append("\(file.lastPathComponent):\(index + 1)")
                }
            }
        }
        #expect(count > 20, "the attributes were found: \(count)")
        #expect(missing.isEmpty, "no `// Unchecked` reason above: \(missing.joined(separator: ", "))")
    }
}
