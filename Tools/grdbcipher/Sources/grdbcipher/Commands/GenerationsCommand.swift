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
            range of times a restore reaches with it, then the range of the whole replica. The key \
            checks that the replica is the database's (a wrong key exits 3); the objects themselves \
            are authenticated when restore reads them.
            """)

    @Argument(help: "The replica: file:///path, or a folder.")
    var replica: String

    @OptionGroup var passphrase: PassphraseOptions

    func execute() throws {
        let store = try ReplicaLocation.store(replica)
        let key = try passphrase.key()
        let generations = try ReplicaLocation.run {
            try await DatabaseReplica(store: store, key: key).generations()
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var lines: [String] = []
        for generation in generations {
            let snapshots = generation.snapshotTimes.map { formatter.string(from: $0) }.joined(separator: ", ")
            lines.append(
                "generation \(generation.id): \(generation.objectCount) object(s), snapshots [\(snapshots)], "
                    + "restores \(formatter.string(from: generation.firstTime)) to \(formatter.string(from: generation.lastTime))")
        }
        if let first = generations.first, let last = generations.last {
            lines.append("restorable: \(formatter.string(from: first.firstTime)) to \(formatter.string(from: last.lastTime))")
        } else {
            lines.append("restorable: nothing (the replica holds no generation)")
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
