// Runs one workload once, on one side, for `make bench-instructions`, which
// counts its instructions with valgrind's callgrind. Counts do not depend on
// what else the machine is doing, unlike wall-clock times.
//
// Usage: InstructionCounts <W1|W2|W3|W4|W4b|W4c|W10a|W10b|W11a|W11b|W12|W13> <rawC|GRDBCipher|floor>
//
// `floor` runs the API's floor of W1, W4, W4c, W10b, W11a and W11b (see
// `APIFloors`): the raw loop plus what GRDB's API forces.
//
// Only `measuredWorkload` is counted (callgrind's --toggle-collect): the
// fixtures and the connection are made before it runs.
import BenchmarkFixtures
import Foundation
import GRDBCipher

let arguments = CommandLine.arguments
guard arguments.count == 3, ["W1", "W2", "W3", "W4", "W4b", "W4c", "W8b", "W10a", "W10b", "W11a", "W11b", "W12", "W13"].contains(arguments[1]),
      ["rawC", "GRDBCipher", "floor"].contains(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: InstructionCounts <W1|W2|W3|W4|W4b|W4c|W10a|W10b|W11a|W11b|W12|W13> <rawC|GRDBCipher|floor>\n".utf8))
    exit(2)
}
let workload = arguments[1]
let usesRawC = arguments[2] == "rawC"
let usesFloor = arguments[2] == "floor"

/// The work callgrind counts; its name is what `--toggle-collect` matches.
@inline(never)
func measuredWorkload(_ body: () throws -> Int64) rethrows -> Int64 {
    try body()
}

var config = Configuration()
config.passphrase = Fixtures.passphrase
let path = (workload.hasPrefix("W4") || workload.hasPrefix("W11")) ? Fixtures.emptyIntsDatabase(named: "instructions-insert") : Fixtures.intsPath
var result: Int64 = 0
if usesFloor {
    let connection = RawConnection(path: path, key: Fixtures.passphrase)
    result = try measuredWorkload {
        switch workload {
        case "W1": return APIFloors.fetchByIndex(connection)
        case "W10b": return try APIFloors.fetchDecodableRecords(connection)
        case "W4": APIFloors.insertThroughArrayLiterals(connection, clearingBindings: true)
        case "W4c": APIFloors.insertThroughArrayLiterals(connection, clearingBindings: false)
        case "W11a": APIFloors.insertThroughContainers(connection)
        case "W11b": try APIFloors.insertEncodableRecords(connection)
        case "W8b":
            let source = RawConnection(path: Fixtures.bigDatabase(named: "instructions-export"), key: Fixtures.passphrase)
            let destination = Fixtures.directory + "/instructions-export-copy.sqlite"
            Fixtures.removeDatabase(at: destination)
            APIFloors.exportWithProof(from: source, to: destination, key: "export passphrase")
        default:
            FileHandle.standardError.write(Data("InstructionCounts: \(workload) has no floor\n".utf8))
            exit(2)
        }
        return 0
    }
} else if usesRawC {
    let connection = RawConnection(path: path, key: Fixtures.passphrase)
    result = measuredWorkload {
        switch workload {
        case "W1": return RawWorkloads.fetchByIndex(connection)
        case "W2": return RawWorkloads.fetchByName(connection)
        case "W3", "W10a", "W10b": return RawWorkloads.fetchStructs(connection)
        case "W12": return RawWorkloads.fetchFilteredStructs(connection)
        case "W13": return RawWorkloads.fetchStructsByKey(connection)
        default:
            RawWorkloads.insert(connection)
            return 0
        }
    }
} else {
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    // Fetches run in a read transaction, as `make bench` runs them (and as
    // the raw loops run theirs); inserts open their own transaction.
    let isFetch = !(workload.hasPrefix("W4") || workload.hasPrefix("W11"))
    func access(_ body: (Database) throws -> Int64) throws -> Int64 {
        isFetch ? try dbQueue.read(body) : try dbQueue.inDatabase(body)
    }
    result = try access { db in
        try measuredWorkload {
            switch workload {
            case "W1": return try GRDBCipherWorkloads.fetchByIndex(db)
            case "W2": return try GRDBCipherWorkloads.fetchByName(db)
            case "W3": return try GRDBCipherWorkloads.fetchStructs(db)
            case "W10a": return try GRDBCipherWorkloads.fetchRecords(db)
            case "W10b": return try GRDBCipherWorkloads.fetchDecodableRecords(db)
            case "W12": return try GRDBCipherWorkloads.fetchFilteredRecords(db)
            case "W13": return try GRDBCipherWorkloads.fetchRecordsByKey(db)
            case "W4b":
                try GRDBCipherWorkloads.insertValues(db)
                return 0
            case "W4c":
                try GRDBCipherWorkloads.insertUnchecked(db)
                return 0
            case "W11a":
                try GRDBCipherWorkloads.insertRecords(db)
                return 0
            case "W11b":
                try GRDBCipherWorkloads.insertEncodableRecords(db)
                return 0
            default:
                try GRDBCipherWorkloads.insert(db)
                return 0
            }
        }
    }
}
print(result)
