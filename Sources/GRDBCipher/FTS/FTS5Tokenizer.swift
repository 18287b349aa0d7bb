import CSQLCipher
import Foundation

/// The callback a tokenizer calls for each token (SQLite's `xToken`).
public typealias FTS5TokenCallback = @convention(c) (
    _ context: UnsafeMutableRawPointer?,
    _ flags: CInt,
    _ pToken: UnsafePointer<CChar>?,
    _ nToken: CInt,
    _ iStart: CInt,
    _ iEnd: CInt) -> CInt

/// Why a string is tokenized: SQLite's `FTS5_TOKENIZE_*` flags.
public struct FTS5Tokenization: OptionSet, Sendable {
    /// The raw flags.
    public let rawValue: CInt

    /// Flags from their raw value.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// A search pattern is tokenized.
    public static let query = FTS5Tokenization(rawValue: FTS5_TOKENIZE_QUERY)
    /// A prefix query (`data*`) is tokenized, with ``query``.
    public static let prefix = FTS5Tokenization(rawValue: FTS5_TOKENIZE_PREFIX)
    /// A document is tokenized, to be indexed or deleted.
    public static let document = FTS5Tokenization(rawValue: FTS5_TOKENIZE_DOCUMENT)
    /// An auxiliary function tokenizes a document.
    public static let aux = FTS5Tokenization(rawValue: FTS5_TOKENIZE_AUX)
}

/// Flags of a token: SQLite's `FTS5_TOKEN_*`.
public struct FTS5TokenFlags: OptionSet, Sendable {
    /// The raw flags.
    public let rawValue: CInt

    /// Flags from their raw value.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// The token is a synonym of the previous one, at the same position.
    public static let colocated = FTS5TokenFlags(rawValue: FTS5_TOKEN_COLOCATED)
}

/// An FTS5 tokenizer: SQLite's built-in ones through
/// ``Database/makeTokenizer(_:)``.
///
/// ```swift
/// let porter = try db.makeTokenizer(.porter())
/// try porter.tokenize(document: "SQLite databases") // [("sqlite", []), ("databas", [])]
/// ```
public protocol FTS5Tokenizer: AnyObject {
    /// Tokenizes `nText` bytes of UTF-8 at `pText`, calling
    /// `tokenCallback` with `context` for each token, as SQLite's
    /// `xTokenize` does.
    ///
    /// - returns: `SQLITE_OK`, or an SQLite error code.
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
}

extension FTS5Tokenizer {
    /// The tokens of a document, as the tokenizer indexes them.
    ///
    /// - throws: A ``DatabaseError`` if the tokenizer fails.
    public func tokenize(document string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokenize(string, for: .document)
    }

    /// The tokens of a query, as the tokenizer reads a search pattern: use
    /// them to build a raw pattern.
    ///
    /// - throws: A ``DatabaseError`` if the tokenizer fails.
    public func tokenize(query string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokenize(string, for: .query)
    }

    private func tokenize(_ string: String, for tokenization: FTS5Tokenization) throws -> [(token: String, flags: FTS5TokenFlags)] {
        let collector = FTS5TokenCollector()
        var utf8 = ContiguousArray(string.utf8)
        let code = utf8.withUnsafeMutableBufferPointer { buffer -> CInt in
            guard let base = buffer.baseAddress else { return SQLITE_OK }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
                withExtendedLifetime(collector) {
                    tokenize(
                        context: Unmanaged.passUnretained(collector).toOpaque(),
                        tokenization: tokenization,
                        pText: text,
                        nText: CInt(buffer.count),
                        tokenCallback: { context, flags, token, length, _, _ in
                            guard let context else { return SQLITE_ERROR }
                            let collector = Unmanaged<FTS5TokenCollector>.fromOpaque(context).takeUnretainedValue()
                            collector.append(token, length: length, flags: flags)
                            return SQLITE_OK
                        })
                }
            }
        }
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        return collector.tokens
    }
}

/// The tokens a tokenizer gave, gathered by the token callback.
private final class FTS5TokenCollector {
    var tokens: [(token: String, flags: FTS5TokenFlags)] = []

    func append(_ token: UnsafePointer<CChar>?, length: CInt, flags: CInt) {
        // A token that is not UTF-8 (a tokenizer bug) is skipped.
        guard let token, length >= 0 else { return }
        let bytes = UnsafeRawBufferPointer(start: token, count: Int(length))
        guard let string = String(validating: bytes, as: UTF8.self) else { return }
        tokens.append((string, FTS5TokenFlags(rawValue: flags)))
    }
}

extension Database {
    /// A tokenizer that SQLite knows: a built-in one, or a custom one
    /// registered on this connection.
    ///
    /// ```swift
    /// let ascii = try db.makeTokenizer(.ascii())
    /// for (token, _) in try ascii.tokenize(query: "SQLite database") {
    ///     print(token) // "sqlite", then "database"
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite does not know the tokenizer
    ///   or refuses its arguments.
    public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
        let api = FTS5.api(self)
        guard let findTokenizer = api.pointee.xFindTokenizer else {
            throw DatabaseError(message: "FTS5 cannot find tokenizers")
        }
        var userData: UnsafeMutableRawPointer?
        var methods = fts5_tokenizer()
        let code = findTokenizer(UnsafeMutablePointer(mutating: api), descriptor.name, &userData, &methods)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code))
        }
        return try FTS5RegisteredTokenizer(methods: methods, userData: userData, arguments: descriptor.arguments)
    }
}

/// A tokenizer instance that SQLite created (`xCreate`) and deletes when
/// it is released (`xDelete`).
private final class FTS5RegisteredTokenizer: FTS5Tokenizer {
    private let methods: fts5_tokenizer
    private let instance: OpaquePointer

    init(methods: fts5_tokenizer, userData: UnsafeMutableRawPointer?, arguments: [String]) throws {
        guard let create = methods.xCreate else {
            throw DatabaseError(message: "nil fts5_tokenizer.xCreate")
        }
        self.methods = methods
        var instance: OpaquePointer?
        let code = withCStrings(arguments) { argv in
            create(userData, argv, CInt(arguments.count), &instance)
        }
        guard code == SQLITE_OK, let instance else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code == SQLITE_OK ? SQLITE_ERROR : code), message: "failed fts5_tokenizer.xCreate")
        }
        self.instance = instance
    }

    deinit {
        methods.xDelete?(instance)
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        guard let xTokenize = methods.xTokenize else { return SQLITE_ERROR }
        return xTokenize(instance, context, tokenization.rawValue, pText, nText, tokenCallback)
    }
}

/// Calls `body` with a C array of the strings (nil when there are none),
/// valid for the call only.
func withCStrings<T>(
    _ strings: [String],
    _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> T) -> T
{
    if strings.isEmpty { return body(nil) }
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}
