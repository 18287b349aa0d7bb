import Foundation
import GRDBCipher
import GRDBCipherTesting
import Testing

@Suite struct TestKeyTests {
    @Test func aRandomRawKeyIsNewEachTimeAndOpensWhatItWrote() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let key = TestKey.insecureRandomRawKey()
        #expect(key.databaseKey.isRawKey)
        try writeNote(at: path, configuration: key.configuration)

        try EncryptionCheck.opens(path, with: key.configuration)
        try EncryptionCheck.refuses(path, with: TestKey.insecureRandomRawKey().configuration)
    }

    @Test func aFastPassphraseUsesOneRoundAndTheSameSettingsEveryTime() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let key = TestKey.insecureFastPassphrase("fast")
        #expect(key.cipherSettings.kdfIterations == 1)
        #expect(!key.databaseKey.isRawKey)
        try writeNote(at: path, configuration: key.configuration)

        try EncryptionCheck.opens(path, with: TestKey.insecureFastPassphrase("fast").configuration)
        // The same passphrase with SQLCipher's real derivation is another key.
        try EncryptionCheck.refuses(path, with: TestKey.passphrase("fast").configuration)
        let settings = try DatabaseQueue(path: path, configuration: key.configuration).read { db in try db.cipherSettings }
        #expect(settings?.kdfIterations == 1)
    }

    @Test func aConfigurationKeepsWhatItIsBasedOnButTheKey() throws {
        var base = Configuration()
        base.foreignKeysEnabled = false
        base.passphrase = "replaced"
        base.cipherSettings = .sqlcipher3
        let key = TestKey.insecureFastPassphrase("fast")
        let configuration = key.configuration(basedOn: base)
        #expect(configuration.foreignKeysEnabled == false)
        #expect(configuration.cipherSettings == key.cipherSettings)
        #expect(configuration.key?.isRawKey == false)
    }

    @Test func aRawKeyWithItsSaltIsChecked() throws {
        #expect(throws: DatabaseError.self) { try TestKey.rawKey(Data(repeating: 1, count: 31)) }
        #expect(throws: DatabaseError.self) { try TestKey.rawKey(Data(repeating: 1, count: 32), salt: Data(count: 15)) }
        let key = try TestKey.rawKey(Data(repeating: 1, count: 32), salt: Data(repeating: 2, count: 16))
        #expect(key.databaseKey.isRawKey)
    }

    @Test func noDescriptionShowsTheKey() throws {
        let keys = [
            ("a passphrase", TestKey.passphrase("secret-passphrase-8d2e")),
            ("a fast passphrase", TestKey.insecureFastPassphrase("secret-passphrase-8d2e")),
            ("a raw key", try TestKey.rawKey(Data(repeating: 0xAB, count: 32))),
        ]
        for (label, key) in keys {
            var dumped = ""
            dump(key, to: &dumped)
            for text in [key.description, key.debugDescription, "\(key)", String(reflecting: key), dumped] {
                #expect(!text.contains("secret-passphrase"), "\(label): \(text)")
                #expect(!text.uppercased().contains("ABABAB"), "\(label): \(text)")
            }
        }
        #expect(TestKey.insecureRandomRawKey().description == "TestKey(insecure random raw key)")
        #expect(TestKey.insecureFastPassphrase("x").description.contains("insecure fast passphrase"))
    }
}
