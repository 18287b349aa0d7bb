import ArgumentParser
import GRDBCipher

/// An algorithm name on the command line: `sha1`, `sha256` or `sha512`.
enum HashName: String, ExpressibleByArgument, CaseIterable {
    case sha1, sha256, sha512

    var kdfAlgorithm: CipherSettings.KDFAlgorithm {
        switch self {
        case .sha1: return .pbkdf2HMACSHA1
        case .sha256: return .pbkdf2HMACSHA256
        case .sha512: return .pbkdf2HMACSHA512
        }
    }

    var hmacAlgorithm: CipherSettings.HMACAlgorithm {
        switch self {
        case .sha1: return .hmacSHA1
        case .sha256: return .hmacSHA256
        case .sha512: return .hmacSHA512
        }
    }
}

/// Cipher settings given on the command line; nil values are not given.
struct CipherSettingsValues {
    var compatibility: Int?
    var kdfIterations: Int?
    var pageSize: Int?
    var kdfAlgorithm: HashName?
    var hmacAlgorithm: HashName?

    var isEmpty: Bool {
        compatibility == nil && kdfIterations == nil && pageSize == nil && kdfAlgorithm == nil && hmacAlgorithm == nil
    }

    /// `base` with the given values put over it.
    func applied(to base: CipherSettings) -> CipherSettings {
        var settings = base
        if let compatibility { settings.compatibility = compatibility }
        if let kdfIterations { settings.kdfIterations = kdfIterations }
        if let pageSize { settings.pageSize = pageSize }
        if let kdfAlgorithm { settings.kdfAlgorithm = kdfAlgorithm.kdfAlgorithm }
        if let hmacAlgorithm { settings.hmacAlgorithm = hmacAlgorithm.hmacAlgorithm }
        return settings
    }

    /// The settings SQLCipher would refuse or silently ignore, as usage errors.
    func validate(prefix: String) throws {
        if let compatibility, !(1...4).contains(compatibility) {
            throw ValidationError("--\(prefix)compatibility must be 1, 2, 3 or 4")
        }
        if let kdfIterations, !(1...Int(Int32.max)).contains(kdfIterations) {
            throw ValidationError("--\(prefix)kdf-iterations must be from 1 to \(Int32.max)")
        }
        if let pageSize, !(512...65536).contains(pageSize) || pageSize & (pageSize - 1) != 0 {
            throw ValidationError("--\(prefix)page-size must be a power of two from 512 to 65536")
        }
    }
}

/// The cipher settings of the file a command works on (or writes, for
/// `encrypt`, `rekey` and `export`). Without them, the tool tries the
/// defaults of SQLCipher 4, 3, 2 and 1 in turn.
struct CipherSettingsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("SQLCipher major version whose defaults apply (1 to 4).", valueName: "version"))
    var compatibility: Int?

    @Option(help: ArgumentHelp("Key derivation iterations (PRAGMA kdf_iter).", valueName: "count"))
    var kdfIterations: Int?

    @Option(help: ArgumentHelp("Cipher page size in bytes (PRAGMA cipher_page_size).", valueName: "bytes"))
    var pageSize: Int?

    @Option(help: ArgumentHelp("Key derivation hash: sha1, sha256 or sha512 (PBKDF2-HMAC).", valueName: "hash"))
    var kdfAlgorithm: HashName?

    @Option(help: ArgumentHelp("Page HMAC hash: sha1, sha256 or sha512.", valueName: "hash"))
    var hmacAlgorithm: HashName?

    var values: CipherSettingsValues {
        CipherSettingsValues(
            compatibility: compatibility, kdfIterations: kdfIterations, pageSize: pageSize,
            kdfAlgorithm: kdfAlgorithm, hmacAlgorithm: hmacAlgorithm)
    }

    func validate() throws { try values.validate(prefix: "") }
}

/// The cipher settings of the input of `rekey` and `export`, whose plain
/// settings options describe the output. Without them, the tool tries the
/// defaults of SQLCipher 4, 3, 2 and 1 in turn.
struct SourceCipherSettingsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The input's SQLCipher compatibility (1 to 4).", valueName: "version"))
    var fromCompatibility: Int?

    @Option(help: ArgumentHelp("The input's key derivation iterations.", valueName: "count"))
    var fromKdfIterations: Int?

    @Option(help: ArgumentHelp("The input's cipher page size in bytes.", valueName: "bytes"))
    var fromPageSize: Int?

    @Option(help: ArgumentHelp("The input's key derivation hash: sha1, sha256 or sha512.", valueName: "hash"))
    var fromKdfAlgorithm: HashName?

    @Option(help: ArgumentHelp("The input's page HMAC hash: sha1, sha256 or sha512.", valueName: "hash"))
    var fromHmacAlgorithm: HashName?

    var values: CipherSettingsValues {
        CipherSettingsValues(
            compatibility: fromCompatibility, kdfIterations: fromKdfIterations, pageSize: fromPageSize,
            kdfAlgorithm: fromKdfAlgorithm, hmacAlgorithm: fromHmacAlgorithm)
    }

    func validate() throws { try values.validate(prefix: "from-") }
}
