// Key envelopes: the cost of rotating the key-encryption key of a 200 MB database (a rewrap
// of `<database>.envelope`) against `changePassphrase` on the same file, and the cost of
// opening a pool through an envelope against a raw-key open plus one derivation of the
// key-encryption key. Medians of several runs.
//
//   swift run -c release --package-path Benchmarks EnvelopeCost [MB]
import CLibCryptoRaw
import Foundation
import GRDBCipher

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func milliseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e6 }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func must<T>(_ body: () throws -> T) -> T {
    do { return try body() } catch { fatalError("benchmark failed: \(error)") }
}

let megabytes = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
let runs = 5
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envelope-cost-\(UUID().uuidString)").path
must { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
defer { try? FileManager.default.removeItem(atPath: folder) }
let path = folder + "/db.sqlite"

let rawKEKs = [Data(repeating: 1, count: 32), Data(repeating: 2, count: 32)].map { data in must { try KeyEncryptionKey.rawKey(data) } }
let passphraseKEKs = [KeyEncryptionKey.passphrase("first outer secret"), KeyEncryptionKey.passphrase("second outer secret")]

// The database, under an envelope wrapped by a raw key.
do {
    var configuration = Configuration()
    configuration.key = must { try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: rawKEKs[0], creatingIfMissing: true).key }
    let dbPool = must { try DatabasePool(path: path, configuration: configuration) }
    must {
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE blob (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
            let chunk = Data(repeating: 0xA5, count: 64 * 1024)
            for _ in 0..<(megabytes * 16) { try db.execute(sql: "INSERT INTO blob (data) VALUES (?)", arguments: [chunk]) }
        }
        try dbPool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try dbPool.close()
    }
}
let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
print("database: \(size / 1_000_000) MB")

// Rewraps, raw keys then passphrases (two scrypt derivations each: unwrap and wrap).
var rawRewraps: [Double] = []
for run in 0..<runs {
    let start = now()
    must { try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: rawKEKs[run % 2], to: rawKEKs[(run + 1) % 2]) }
    rawRewraps.append(milliseconds(now() - start))
}
let currentRaw = rawKEKs[runs % 2]
must { try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: currentRaw, to: passphraseKEKs[0]) }
var passphraseRewraps: [Double] = []
for run in 0..<runs {
    let start = now()
    must { try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: passphraseKEKs[run % 2], to: passphraseKEKs[(run + 1) % 2]) }
    passphraseRewraps.append(milliseconds(now() - start))
}
let currentKEK = passphraseKEKs[runs % 2]

// Opening a pool through the envelope, against a raw-key open plus one scrypt derivation.
var envelopeOpens: [Double] = []
var referenceOpens: [Double] = []
let dataKey = must { try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: currentKEK).key }
let parameters = must { try DatabaseEnvelope.info(forDatabaseAt: path) }.scrypt!
// The scrypt salt, from the envelope's documented JSON.
let envelopeJSON = must {
    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: path))))
} as! [String: Any]
let saltHex = (envelopeJSON["keyEncryptionKey"] as! [String: Any])["salt"] as! String
let salt: [UInt8] = stride(from: 0, to: saltHex.count, by: 2).map { index in
    let start = saltHex.index(saltHex.startIndex, offsetBy: index)
    return UInt8(saltHex[start..<saltHex.index(start, offsetBy: 2)], radix: 16)!
}
let passphraseBytes = Array("second outer secret".utf8)
/// One scrypt derivation with the envelope's parameters, as the reference's cost.
func deriveOnce() {
    var output = [UInt8](repeating: 0, count: 32)
    let memory = UInt64(128) * parameters.blockSize * parameters.cost + (1 << 20)
    let status = passphraseBytes.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
            EVP_PBE_scrypt(chars.baseAddress, chars.count, salt, salt.count, parameters.cost, parameters.blockSize,
                           parameters.parallelization, memory, &output, 32)
        }
    }
    precondition(status == 1, "scrypt failed")
}
for run in 0..<(2 * runs) {
    let throughEnvelope = run % 2 == 0
    let start = now()
    var configuration = Configuration()
    if throughEnvelope {
        configuration.key = must { try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: currentKEK).key }
    } else {
        deriveOnce()
        configuration.key = dataKey
    }
    let dbPool = must { try DatabasePool(path: path, configuration: configuration) }
    _ = must { try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blob WHERE id = 1") } }
    let time = milliseconds(now() - start)
    must { try dbPool.close() }
    if throughEnvelope { envelopeOpens.append(time) } else { referenceOpens.append(time) }
}

// The parts of an open: the unwrap alone, one derivation alone.
var unwraps: [Double] = []
var derivations: [Double] = []
for _ in 0..<runs {
    var start = now()
    _ = must { try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: currentKEK) }
    unwraps.append(milliseconds(now() - start))
    start = now()
    deriveOnce()
    derivations.append(milliseconds(now() - start))
}
print("unwrap \(median(unwraps)) ms, one derivation \(median(derivations)) ms")

// changePassphrase on the same file, for comparison: the data key re-encrypted in place.
var rotations: [Double] = []
for _ in 0..<2 {
    let start = now()
    must { try DatabaseEnvelope.rotateDataKey(forDatabaseAt: path, keyEncryptionKey: currentKEK) }
    rotations.append(milliseconds(now() - start))
}

print("""
    | operation on a \(size / 1_000_000) MB database | median |
    | --- | --- |
    | rewrap, raw key-encryption keys | \(String(format: "%.1f", median(rawRewraps))) ms |
    | rewrap, passphrase key-encryption keys (two scrypt derivations, N = 2^17) | \(String(format: "%.1f", median(passphraseRewraps))) ms |
    | data-key rotation (the file re-encrypted in place, proved, envelope replaced) | \(String(format: "%.0f", median(rotations))) ms |
    | pool open through the envelope (unwrap, open, first read) | \(String(format: "%.1f", median(envelopeOpens))) ms |
    | raw-key pool open plus one scrypt derivation | \(String(format: "%.1f", median(referenceOpens))) ms |
    | ratio | \(String(format: "%.3f", median(envelopeOpens) / median(referenceOpens))) |
    """)
