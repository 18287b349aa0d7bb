import ArgumentParser
import Foundation
import GRDBCipher

/// `grdbcipher generations REPLICA`: what a replica holds.
struct GenerationsCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "generations",
        abstract: "List what a replica holds: its generations, their snapshots, the times it restores.",
        discussion: """
            One line per generation: its name, its object count, the times of its snapshots, and the \
            range of times a restore reaches with it, marked "another key" when the key given does not \
            open it (a key change starts a generation under the new key), and "envelope" when it holds \
            the key envelope of an enveloped database; then the range that the key restores. REPLICA \
            is file:///path, s3://bucket/prefix or a folder, as for restore, and so are the keys (a \
            key-encryption key for an enveloped database). A key that opens no generation exits 3; \
            the objects themselves are authenticated when restore reads them.
            """)

    @Argument(help: "The replica: file:///path, s3://bucket/prefix, or a folder.")
    var replica: String

    @OptionGroup var passphrase: PassphraseOptions

    func execute() throws {
        let (replica, _) = try ReplicaLocation.replica(self.replica, passphrase: passphrase)
        let generations = try ReplicaLocation.run { try await replica.generations() }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var lines: [String] = []
        for generation in generations {
            let snapshots = generation.snapshotTimes.map { formatter.string(from: $0) }.joined(separator: ", ")
            let marks = (generation.opensWithKey ? "" : ", another key") + (generation.holdsEnvelope ? ", envelope" : "")
            lines.append(
                "generation \(generation.id): \(generation.objectCount) object(s), snapshots [\(snapshots)], "
                    + "restores \(formatter.string(from: generation.firstTime)) to \(formatter.string(from: generation.lastTime))"
                    + marks)
        }
        let opening = generations.filter(\.opensWithKey)
        if let first = opening.first, let last = opening.last {
            lines.append("restorable: \(formatter.string(from: first.firstTime)) to \(formatter.string(from: last.lastTime))")
        } else {
            lines.append("restorable: nothing (the replica holds no generation)")
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
