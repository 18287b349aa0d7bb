import Foundation

/// The snake-case conversions of Foundation's JSON coders, for the column
/// coding strategies.
enum SnakeCase {
    /// `player_id` → `playerId`: the words after the first are capitalized
    /// and joined; leading and trailing underscores stay; a name without an
    /// inner underscore is left as it is.
    static func camelCased(_ name: String) -> String {
        guard let start = name.firstIndex(where: { $0 != "_" }) else { return name }
        var end = name.index(before: name.endIndex)
        while end > start && name[end] == "_" { end = name.index(before: end) }
        let core = name[start...end]
        let words = core.split(separator: "_")
        guard words.count > 1 else { return name }
        var result = String(name[..<start])
        result += words[0].lowercased()
        for word in words.dropFirst() { result += word.capitalized }
        result += name[name.index(after: end)...]
        return result
    }

    /// `playerID` → `player_id`, `myURLProperty` → `my_url_property`: a
    /// word ends before an uppercase letter that follows the first character,
    /// and a run of capitals followed by a lowercase letter is a word but
    /// its last capital, which starts the next one. Words are lowercased and
    /// joined with underscores.
    static func snakeCased(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        guard scalars.dropFirst().contains(where: isUppercase) else { return name.lowercased() }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = (searchStart..<scalars.count).first(where: { isUppercase(scalars[$0]) }) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<scalars.count).first(where: { isLowercase(scalars[$0]) }) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                // A run of capitals: an acronym, then the capital that
                // starts the next word.
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<scalars.count)
        return words.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word).lowercased()
        }.joined(separator: "_")
    }

    private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .uppercaseLetter || category == .titlecaseLetter
    }

    private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .lowercaseLetter
    }
}
