import Foundation
import Testing

/// The folders of `Sources/GRDBCipher` are layers (see CONTRIBUTING's
/// "Architecture"): no file's code names a type declared in a folder of a
/// higher layer. Documentation may link up (a connection's documentation
/// names the pool that owns it): links are not dependencies. A type nested
/// in a declaration or an extension counts as its file's when no other file
/// declares a type of that name (names such as `Impl` or `RowDecoder`,
/// declared in many places, say nothing of a layer). An arrow that has to
/// run up is listed in ``allowedArrows`` with its reason, and the test fails
/// when it is no longer needed, so that the list only shrinks; none is
/// needed today.
@Suite struct LayerMapTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/GRDBCipher")

    /// The layers, from the bottom; the folders of one layer may name each
    /// other's types.
    private static let layers: [[String]] = [
        ["Core"],
        ["Concurrency"],
        ["Backup"],
        ["Encryption"],
        ["Observation"],
        ["Replication"],
        ["QueryInterface", "Record", "Associations"],
        ["SchemaDefinition"],
        ["FTS"],
        ["Dump"],
        ["Migration"],
    ]

    /// The arrows that run up, as "folder names type", with the reason.
    private static let allowedArrows: [String: String] = [:]

    private static func swiftFiles(in folder: String) throws -> [URL] {
        let root = sources.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The types a file declares: at its top level, and nested.
    private static func declaredTypes(in source: String) -> (topLevel: Set<String>, nested: Set<String>) {
        let pattern = /(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)/
        var topLevel: Set<String> = []
        var nested: Set<String> = []
        for line in source.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard let match = trimmed.prefixMatch(of: pattern) else { continue }
            if trimmed.startIndex == line.startIndex {
                topLevel.insert(String(match.output.1))
            } else {
                nested.insert(String(match.output.1))
            }
        }
        return (topLevel, nested)
    }

    /// The code of a file without its comments and string literals.
    private static func code(of source: String) -> String {
        var code = ""
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if let range = line.range(of: "//") {
                code += line[..<range.lowerBound]
            } else {
                code += line
            }
            code += "\n"
        }
        code.replace(/"(?:[^"\\\n]|\\.)*"/, with: "\"\"")
        return code
    }

    /// The identifiers of some code that start with a capital letter (type
    /// names), read byte by byte: a regular expression over every file of
    /// the library takes a minute.
    private static func identifiers(in code: String) -> Set<String> {
        var names: Set<String> = []
        var utf8 = code.utf8[...]
        func isIdentifierByte(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
        while let start = utf8.firstIndex(where: isIdentifierByte) {
            let end = utf8[start...].firstIndex { !isIdentifierByte($0) } ?? utf8.endIndex
            let first = utf8[start]
            if first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") {
                names.insert(String(decoding: utf8[start..<end], as: UTF8.self))
            }
            utf8 = utf8[end...]
        }
        return names
    }

    @Test func everyFolderIsALayerOfTheMap() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.sources.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue && !name.hasSuffix(".docc")
        }
        #expect(Set(folders) == Set(Self.layers.joined()), "the folders and the layer map differ: \(folders.sorted())")
    }

    @Test func noFolderNamesATypeOfAHigherLayer() throws {
        var level: [String: Int] = [:]
        for (index, layer) in Self.layers.enumerated() {
            for folder in layer { level[folder] = index }
        }
        var owner: [String: String] = [:]
        var nestedOwners: [String: [String]] = [:]
        for folder in Self.layers.joined() {
            for file in try Self.swiftFiles(in: folder) {
                let declared = Self.declaredTypes(in: try String(contentsOf: file, encoding: .utf8))
                for type in declared.topLevel {
                    owner[type] = folder
                }
                for type in declared.nested {
                    nestedOwners[type, default: []].append(folder)
                }
            }
        }
        // The names of the standard library's generic parameters and
        // associated types, which code of every layer uses unqualified.
        let standardNames: Set<String> = ["Key", "Value", "Element", "Index", "Iterator", "SubSequence", "Wrapped", "RawValue", "Failure", "ID"]
        for (type, folders) in nestedOwners where folders.count == 1 && owner[type] == nil && !standardNames.contains(type) {
            owner[type] = folders[0]
        }
        #expect(owner.count > 300, "the layers' types were found: \(owner.count)")
        var found: [String] = []
        var used: Set<String> = []
        for folder in Self.layers.joined() {
            let files = try Self.swiftFiles(in: folder)
            #expect(!files.isEmpty, "\(folder) has no file")
            for file in files {
                let code = Self.code(of: try String(contentsOf: file, encoding: .utf8))
                let identifiers = Self.identifiers(in: code)
                for name in identifiers {
                    guard let other = owner[name], let theirs = level[other], let ours = level[folder], theirs > ours
                    else { continue }
                    let arrow = "\(folder) names \(name)"
                    if Self.allowedArrows[arrow] != nil {
                        used.insert(arrow)
                        continue
                    }
                    found.append("\(file.lastPathComponent) (\(folder)) names \(name) (\(other), a higher layer)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.sorted().joined(separator: "\n"))")
        let unused = Set(Self.allowedArrows.keys).subtracting(used)
        #expect(unused.isEmpty, "no longer needed, remove from allowedArrows: \(unused.sorted())")
    }
}
