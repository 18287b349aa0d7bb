import Foundation

/// The rules that turn a singular English name into a plural one and back.
///
/// Associations use them for their default keys (`hasMany(Book.self)` is
/// keyed "books"), and the schema DSL to find the table a reference names.
/// ``default`` holds the built-in English rules; add yours to it early,
/// before any association is defined:
///
/// ```swift
/// Inflections.default.irregularSuffix("foot", "feet")
/// Inflections.default.uncountableWords(["gravel"])
/// Inflections.default.plural("(quiz)$", "$1zes")
/// ```
///
/// A rule applies to the last word of a name ("teamPlayer" inflects
/// "Player", "team_player" inflects "player"), and trailing digits are kept
/// ("player2" -> "players2"). Rules added last are tried first. A new
/// `Inflections()` has no rule at all.
public struct Inflections: @unchecked Sendable {
    // Unchecked: the regular expressions are immutable once compiled.

    /// A pattern and its replacement template (`$1` for the first group).
    private struct Rule {
        let expression: NSRegularExpression
        let template: String
    }

    private var pluralRules: [Rule] = []
    private var singularRules: [Rule] = []
    private var uncountables: Set<String> = []
    /// The results so far: matching a name against every rule costs about
    /// 20 µs, and association keys are inflected each time a request
    /// includes an association. Replaced by each change of the rules, so
    /// copies of these inflections share it only while they are equal.
    private var results = ResultCache()

    /// Inflected names, by name and direction.
    private final class ResultCache: Sendable {
        private static let maximumCount = 1_000
        private let results = LockedValue<[String: String]>([:])

        func result(for key: String, compute: () -> String) -> String {
            if let result = results.withLock({ $0[key] }) { return result }
            let result = compute()
            results.withLock { results in
                if results.count < Self.maximumCount { results[key] = result }
            }
            return result
        }
    }

    /// Inflections without any rule: names are left as they are until
    /// rules are added.
    public init() { }

    /// The inflections that GRDBCipher uses: the built-in English rules,
    /// and the ones you add. Change them before any association or
    /// database access, from one thread.
    nonisolated(unsafe) public static var `default`: Inflections = .english

    /// Adds a rule that turns a singular word into a plural one: the
    /// matches of `pattern` in the last word of a name are replaced by
    /// `template` (`$1` for the first group). Words
    /// that match `pattern` are replaced by `template`.
    ///
    /// - precondition: `pattern` is a valid regular expression.
    public mutating func plural(
        _ pattern: String, options: NSRegularExpression.Options = [.caseInsensitive], _ template: String)
    {
        pluralRules.append(Self.rule(pattern, options: options, template))
        results = ResultCache()
    }

    /// Adds a rule that turns a plural word into a singular one: the
    /// matches of `pattern` in the last word of a name are replaced by
    /// `template`. Words
    /// that match `pattern` are replaced by `template`.
    ///
    /// - precondition: `pattern` is a valid regular expression.
    public mutating func singular(
        _ pattern: String, options: NSRegularExpression.Options = [.caseInsensitive], _ template: String)
    {
        singularRules.append(Self.rule(pattern, options: options, template))
        results = ResultCache()
    }

    /// Words that stay as they are, in the singular and in the plural
    /// (compared case-insensitively).
    public mutating func uncountableWords(_ words: [String]) {
        uncountables.formUnion(words.map { $0.lowercased() })
        results = ResultCache()
    }

    /// A word whose plural no rule gives, as a suffix: after
    /// `irregularSuffix("foot", "feet")`, "foot" and "bigFoot" pluralize as
    /// "feet" and "bigFeet", and the plurals singularize back. The case of
    /// the first letter is kept.
    ///
    /// - precondition: both words are not empty.
    public mutating func irregularSuffix(_ singular: String, _ plural: String) {
        precondition(!singular.isEmpty && !plural.isEmpty, "Inflections.irregularSuffix: empty word")
        let escapedSingular = NSRegularExpression.escapedPattern(for: String(singular.dropFirst()))
        let escapedPlural = NSRegularExpression.escapedPattern(for: String(plural.dropFirst()))
        let singularRest = String(singular.dropFirst())
        let pluralRest = String(plural.dropFirst())
        let (singularFirst, pluralFirst) = (singular.first!, plural.first!)
        if singularFirst.lowercased() == pluralFirst.lowercased() {
            // The first letter is kept as it is written.
            let first = NSRegularExpression.escapedPattern(for: String(singularFirst))
            let pluralFirstPattern = NSRegularExpression.escapedPattern(for: String(pluralFirst))
            self.plural("(\(first))\(escapedSingular)$", "$1" + NSRegularExpression.escapedTemplate(for: pluralRest))
            self.plural("(\(pluralFirstPattern))\(escapedPlural)$", "$1" + NSRegularExpression.escapedTemplate(for: pluralRest))
            self.singular("(\(first))\(escapedSingular)$", "$1" + NSRegularExpression.escapedTemplate(for: singularRest))
            self.singular("(\(pluralFirstPattern))\(escapedPlural)$", "$1" + NSRegularExpression.escapedTemplate(for: singularRest))
        } else {
            // Different first letters: one rule per case of the first one.
            for (from, rest) in [(singularFirst, escapedSingular), (pluralFirst, escapedPlural)] {
                for upper in [true, false] {
                    let letter = upper ? from.uppercased() : from.lowercased()
                    let pattern = NSRegularExpression.escapedPattern(for: letter) + "(?i)" + rest + "$"
                    let pluralWord = (upper ? pluralFirst.uppercased() : pluralFirst.lowercased()) + pluralRest
                    let singularWord = (upper ? singularFirst.uppercased() : singularFirst.lowercased()) + singularRest
                    self.plural(pattern, options: [], NSRegularExpression.escapedTemplate(for: pluralWord))
                    self.singular(pattern, options: [], NSRegularExpression.escapedTemplate(for: singularWord))
                }
            }
        }
    }

    /// The plural of a name: "player" -> "players", "person" -> "people".
    public func pluralize(_ string: String) -> String {
        results.result(for: "+" + string) { inflect(string, with: pluralRules) }
    }

    /// The singular of a name: "players" -> "player", "people" -> "person".
    public func singularize(_ string: String) -> String {
        results.result(for: "-" + string) { inflect(string, with: singularRules) }
    }

    // MARK: - Private

    private static func rule(_ pattern: String, options: NSRegularExpression.Options, _ template: String) -> Rule {
        do {
            return Rule(expression: try NSRegularExpression(pattern: pattern, options: options), template: template)
        } catch {
            preconditionFailure("Inflections: invalid regular expression \(pattern): \(error)")
        }
    }

    private func inflect(_ string: String, with rules: [Rule]) -> String {
        let digitCount = string.reversed().prefix { $0.isASCII && $0.isNumber }.count
        let radical = string.dropLast(digitCount)
        let lastWordStart = Self.startOfLastWord(in: radical)
        let lastWord = String(radical[lastWordStart...])
        if lastWord.isEmpty || uncountables.contains(lastWord.lowercased()) { return string }
        let range = NSRange(lastWord.startIndex..., in: lastWord)
        // The first rule that matches replaces all its matches, as in GRDB.
        for rule in rules.reversed() where rule.expression.firstMatch(in: lastWord, range: range) != nil {
            let inflected = rule.expression.stringByReplacingMatches(in: lastWord, range: range, withTemplate: rule.template)
            return radical[..<lastWordStart] + inflected + string.suffix(digitCount)
        }
        return string
    }

    /// Where the last word of a name starts: after its last character that
    /// is neither a letter nor a digit, or at its last capital letter that
    /// follows a small one.
    private static func startOfLastWord(in name: Substring) -> Substring.Index {
        var index = name.endIndex
        while index > name.startIndex {
            let previous = name.index(before: index)
            let character = name[previous]
            if !(character.isLetter || character.isNumber) { return index }
            if character.isUppercase, previous > name.startIndex, name[name.index(before: previous)].isLowercase {
                return previous
            }
            index = previous
        }
        return index
    }
}
