/// An FTS5 tokenizer and its arguments: what a word is, and when two words
/// match.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.tokenizer = .porter(wrapping: .unicode61(diacritics: .keep))
///     t.column("title")
/// }
/// ```
public struct FTS5TokenizerDescriptor: Sendable {
    /// The tokenizer name followed by its arguments, as in
    /// `tokenize='porter unicode61 remove_diacritics 0'`.
    public let components: [String]

    /// The tokenizer name.
    var name: String { components[0] }

    /// The tokenizer arguments.
    var arguments: [String] { Array(components.dropFirst()) }

    /// A tokenizer from its name and arguments: a tokenizer SQLite does not
    /// describe here, or a custom one.
    ///
    /// ```swift
    /// t.tokenizer = FTS5TokenizerDescriptor(components: ["trigram", "case_sensitive", "1"])
    /// ```
    ///
    /// - precondition: `components` is not empty.
    public init(components: [String]) {
        precondition(!components.isEmpty, "FTS5TokenizerDescriptor requires at least one component")
        self.components = components
    }

    /// The `ascii` tokenizer: ASCII letters are folded to lower case;
    /// other characters are kept as they are.
    ///
    /// - parameters:
    ///     - separators: Characters that separate tokens, in addition to
    ///       the default ones.
    ///     - tokenCharacters: Characters that belong to tokens, in
    ///       addition to the default ones.
    public static func ascii(
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor
    {
        FTS5TokenizerDescriptor(
            components: ["ascii"] + characterArguments(separators: separators, tokenCharacters: tokenCharacters))
    }

    /// The Porter stemmer, around another tokenizer (`unicode61` when
    /// `base` is nil): "databases" matches "database".
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
    }

    /// The `unicode61` tokenizer (FTS5's default): Unicode case folding
    /// and, by default, removal of diacritics from Latin characters.
    ///
    /// - parameters:
    ///     - diacritics: How diacritics are treated.
    ///     - categories: The Unicode categories of token characters, as
    ///       SQLite reads them (`"L* N* Co"`); empty keeps the default.
    ///     - separators: Characters that separate tokens, in addition to
    ///       the default ones.
    ///     - tokenCharacters: Characters that belong to tokens, in
    ///       addition to the default ones.
    public static func unicode61(
        diacritics: FTS5.Diacritics = .removeLegacy,
        categories: String = "",
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor
    {
        var components = ["unicode61"]
        switch diacritics {
        case .removeLegacy: break
        case .keep: components += ["remove_diacritics", "0"]
        case .remove: components += ["remove_diacritics", "2"]
        }
        if !categories.isEmpty {
            components += ["categories", categories]
        }
        components += characterArguments(separators: separators, tokenCharacters: tokenCharacters)
        return FTS5TokenizerDescriptor(components: components)
    }

    /// `separators <chars> tokenchars <chars>`, each only when not empty,
    /// characters sorted.
    private static func characterArguments(separators: Set<Character>, tokenCharacters: Set<Character>) -> [String] {
        var arguments: [String] = []
        if !separators.isEmpty {
            arguments += ["separators", String(separators.sorted())]
        }
        if !tokenCharacters.isEmpty {
            arguments += ["tokenchars", String(tokenCharacters.sorted())]
        }
        return arguments
    }
}
