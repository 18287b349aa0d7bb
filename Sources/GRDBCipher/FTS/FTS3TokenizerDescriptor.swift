/// An FTS3 or FTS4 tokenizer: what a word is, and when two words match.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.tokenizer = .unicode61(diacritics: .keep)
///     t.column("title")
/// }
/// ```
public struct FTS3TokenizerDescriptor: Sendable {
    /// The tokenizer name: `simple`, `porter`, `unicode61`.
    let name: String
    /// The tokenizer arguments, as SQLite reads them.
    let arguments: [String]

    init(_ name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// SQLite's default tokenizer: ASCII letters are folded to lower case;
    /// no stemming, diacritics kept.
    public static let simple = FTS3TokenizerDescriptor("simple")

    /// The Porter stemmer: "databases" matches "database".
    public static let porter = FTS3TokenizerDescriptor("porter")

    /// The `unicode61` tokenizer: Unicode case folding and, by default,
    /// removal of diacritics from Latin characters.
    ///
    /// ```swift
    /// t.tokenizer = .unicode61(tokenCharacters: ["-"])
    /// ```
    ///
    /// - parameters:
    ///     - diacritics: How diacritics are treated.
    ///     - separators: Characters that separate tokens, in addition to
    ///       the default ones.
    ///     - tokenCharacters: Characters that belong to tokens, in
    ///       addition to the default ones.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS3TokenizerDescriptor
    {
        var arguments: [String] = []
        switch diacritics {
        case .removeLegacy: break
        case .keep: arguments.append("remove_diacritics=0")
        case .remove: arguments.append("remove_diacritics=2")
        }
        if !separators.isEmpty {
            arguments.append("separators=" + String(separators.sorted()))
        }
        if !tokenCharacters.isEmpty {
            arguments.append("tokenchars=" + String(tokenCharacters.sorted()))
        }
        return FTS3TokenizerDescriptor("unicode61", arguments: arguments)
    }

    /// `tokenize=name "argument" ...`, the argument of FTS3 and FTS4 tables.
    var moduleArgument: String {
        if arguments.isEmpty { return "tokenize=\(name)" }
        return "tokenize=\(name) " + arguments.map { "\"\($0)\"" }.joined(separator: " ")
    }
}
