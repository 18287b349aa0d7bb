import Foundation
import Testing

/// The README's performance table shows every workload of the latest
/// benchmark run (`Benchmarks/results/latest.md`), with its median paired
/// ratio, its API floor and its target, met or missed, as that file has them: the README's
/// figures come from the results file, and go stale only together with it.
@Suite struct ReadmePerformanceTableTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The cells of a Markdown table row, trimmed.
    private static func cells(_ line: Substring) -> [String] {
        guard line.hasPrefix("|"), line.hasSuffix("|") else { return [] }
        return line.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func theReadmeShowsEveryWorkloadOfTheLatestRun() throws {
        let results = try String(contentsOf: Self.root.appendingPathComponent("Benchmarks/results/latest.md"), encoding: .utf8)
        // workload | raw C | GRDBCipher | ratio of fastest | median paired ratio | API floor | target
        var expected: [String: (ratio: String, floor: String, target: String)] = [:]
        for line in results.split(separator: "\n") {
            let cells = Self.cells(line)
            guard cells.count == 7, cells[0].hasPrefix("W") else { continue }
            expected[cells[0]] = (cells[4], cells[5], cells[6])
        }
        #expect(expected.count >= 15, "no workloads found in Benchmarks/results/latest.md")

        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let marker = try #require(lines.firstIndex(of: "<!-- Benchmarks/results/latest.md -->"), "the README has no performance table marker")
        // workload | what it does | ratio | API floor | target | GRDB's ratio
        var shown: [String: (ratio: String, floor: String, target: String)] = [:]
        for line in lines[(marker + 1)...].prefix(while: { !$0.isEmpty }) {
            let cells = Self.cells(line)
            guard cells.count == 6, cells[0].hasPrefix("W") else { continue }
            shown[cells[0]] = (cells[2], cells[3], cells[4])
        }
        #expect(Set(shown.keys) == Set(expected.keys), "the README's table and latest.md list different workloads")
        for (workload, figures) in expected {
            guard let row = shown[workload] else { continue }
            #expect(row.ratio == figures.ratio, "\(workload): the README shows \(row.ratio), latest.md \(figures.ratio)")
            #expect(row.floor == figures.floor, "\(workload): the README's floor \(row.floor), latest.md's \(figures.floor)")
            #expect(row.target == figures.target, "\(workload): the README's target \(row.target), latest.md's \(figures.target)")
        }
    }
}
