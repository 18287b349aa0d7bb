import Foundation
import Testing

/// Every Swift block of the README is code that compiles: the line before
/// it names where. `<!-- compiled: File.swift -->` is a whole file of this
/// folder, byte for byte; `<!-- compiled: File.swift#name -->` is the region
/// between `// README: name` and `// README: end` of that file (without the
/// region's indentation); `<!-- manifest -->` is a fragment of a
/// `Package.swift`, which a test target cannot compile.
@Suite struct ReadmeSnippetTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    private struct Block {
        let marker: String
        let lines: [Substring]
        let line: Int
    }

    private static func readmeBlocks() throws -> [Block] {
        let readmeURL = folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let lines = try String(contentsOf: readmeURL, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index] == "```swift" else { continue }
            let marker = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            guard let end = lines[(index + 1)...].firstIndex(of: "```") else {
                Issue.record("README.md line \(index + 1): the Swift block does not end")
                return blocks
            }
            blocks.append(Block(marker: String(marker), lines: Array(lines[(index + 1)..<end]), line: index + 1))
            index = end
        }
        return blocks
    }

    /// The lines of the region `name` of `file`, without its indentation.
    private static func region(_ name: String, of file: [Substring]) -> [Substring]? {
        guard let start = file.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// README: \(name)" }),
              let end = file[(start + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// README: end" })
        else { return nil }
        let indentation = file[start].prefix { $0 == " " }.count
        return file[(start + 1)..<end].map { $0.count >= indentation ? $0.dropFirst(indentation) : $0.drop { $0 == " " } }
    }

    private static func compare(_ block: Block, _ code: [Substring], _ source: String) {
        guard block.lines != code else { return }
        let line = zip(block.lines, code).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(block.lines.count, code.count)
        Issue.record("""
            README.md's block at line \(block.line) differs from \(source) at its line \(line + 1):
            README: \(line < block.lines.count ? String(block.lines[line]) : "(end)")
            code:   \(line < code.count ? String(code[line]) : "(end)")
            Change both, so that the README shows the code that compiles.
            """)
    }

    @Test func everySwiftBlockOfTheReadmeIsCodeThatCompiles() throws {
        let blocks = try Self.readmeBlocks()
        #expect(blocks.count >= 20, "the README's Swift blocks were not found")
        var shownRegions: [String: Set<String>] = [:]
        for block in blocks {
            if block.marker == "<!-- manifest -->" { continue }
            let prefix = "<!-- compiled: ", suffix = " -->"
            guard block.marker.hasPrefix(prefix), block.marker.hasSuffix(suffix) else {
                Issue.record("README.md line \(block.line): a Swift block without `<!-- compiled: File.swift#name -->` above it")
                continue
            }
            let target = block.marker.dropFirst(prefix.count).dropLast(suffix.count)
            let parts = target.split(separator: "#", maxSplits: 1)
            let fileName = String(parts[0])
            let text = try String(contentsOf: Self.folder.appendingPathComponent(fileName), encoding: .utf8)
            let file = text.split(separator: "\n", omittingEmptySubsequences: false)
            if parts.count == 1 {
                // The whole file, which ends with a newline the block does not show.
                Self.compare(block, Array(file.dropLast()), fileName)
            } else if let code = Self.region(String(parts[1]), of: file) {
                shownRegions[fileName, default: []].insert(String(parts[1]))
                Self.compare(block, code, "\(fileName)#\(parts[1])")
            } else {
                Issue.record("README.md line \(block.line): \(fileName) has no region `// README: \(parts[1])`")
            }
        }
        // And no region is left that the README no longer shows.
        for (fileName, shown) in shownRegions {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(fileName), encoding: .utf8)
            let names = text.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("// README: "), trimmed != "// README: end" else { return nil }
                return String(trimmed.dropFirst("// README: ".count))
            }
            for name in names where !shown.contains(name) {
                Issue.record("\(fileName) has a region `\(name)` that the README does not show")
            }
        }
    }
}
