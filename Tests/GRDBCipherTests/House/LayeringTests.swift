import Foundation
import Testing

/// Core knows nothing of the layers above it: no file of `Core/` names a
/// type declared in the records, query interface, associations or
/// observation folders, in code or in a documentation link.
@Suite struct LayeringTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/GRDBCipher")

    /// The layers above Core whose types Core must not name.
    private static let upperLayers = ["Record", "QueryInterface", "Associations", "Observation"]

    /// Names that Core may use, with the reason.
    private static let allowed: [String: String] = [
        // `public protocol DatabaseValueConvertible: SQLExpressible`: GRDB's
        // public API makes every value an expression, and a protocol's
        // refinements cannot be added from another file.
        "SQLExpressible": "DatabaseValueConvertible refines it, as in GRDB",
    ]

    private static func swiftFiles(in folder: String) throws -> [URL] {
        let root = sources.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The types a file declares at its top level.
    private static func declaredTypes(in source: String) -> Set<String> {
        let pattern = /(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)/
        var types: Set<String> = []
        for line in source.split(separator: "\n") {
            if let match = line.prefixMatch(of: pattern) { types.insert(String(match.output.1)) }
        }
        return types
    }

    /// The code of a file without its comments and string literals, and,
    /// apart, the symbols its comments link with double backticks.
    private static func codeAndLinks(of source: String) -> (code: String, links: [String]) {
        var code = ""
        var links: [String] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if let range = line.range(of: "//") {
                let comment = line[range.upperBound...]
                links += comment.matches(of: /``([A-Za-z_][A-Za-z0-9_]*)/).map { String($0.output.1) }
                code += line[..<range.lowerBound]
            } else {
                code += line
            }
            code += "\n"
        }
        code.replace(/"(?:[^"\\\n]|\\.)*"/, with: "\"\"")
        return (code, links)
    }

    @Test func coreNamesNoTypeOfTheLayersAboveIt() throws {
        var upperTypes: [String: String] = [:]
        for layer in Self.upperLayers {
            for file in try Self.swiftFiles(in: layer) {
                for type in Self.declaredTypes(in: try String(contentsOf: file, encoding: .utf8)) {
                    upperTypes[type] = layer
                }
            }
        }
        #expect(upperTypes.count > 100, "the layers' types were found: \(upperTypes.count)")
        let coreFiles = try Self.swiftFiles(in: "Core")
        #expect(coreFiles.count > 50)
        var found: [String] = []
        for file in coreFiles {
            let (code, links) = Self.codeAndLinks(of: try String(contentsOf: file, encoding: .utf8))
            let identifiers = Set(code.matches(of: /[A-Za-z_][A-Za-z0-9_]*/).map { String($0.output) })
            for name in identifiers.union(links) {
                guard let layer = upperTypes[name], Self.allowed[name] == nil else { continue }
                found.append("\(file.lastPathComponent) names \(name) (\(layer))")
            }
        }
        #expect(found.isEmpty, "\(found.sorted().joined(separator: "\n"))")
    }
}
