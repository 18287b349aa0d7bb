// English inflections of table names, for `belongsTo("team")` to find a
// table named "teams", and to recognize a reference to the table being
// created ("player" in "players"). The rules cover regular plurals and the
// common irregular and uncountable words; trailing digits are kept
// ("player2" -> "players2").

extension String {
    /// "player" -> "Player"
    var uppercasingFirstCharacter: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }

    /// "player" -> "players", "person" -> "people"; an English plural is
    /// left as it is ("players" -> "players").
    var pluralized: String {
        inflected(with: EnglishInflections.pluralRules, irregular: EnglishInflections.irregularPlurals)
    }

    /// "players" -> "player", "people" -> "person"; an English singular is
    /// left as it is ("player" -> "player").
    var singularized: String {
        inflected(with: EnglishInflections.singularRules, irregular: EnglishInflections.irregularSingulars)
    }

    private func inflected(with rules: [(suffix: String, replacement: String)], irregular: [String: String]) -> String {
        let digits = reversed().prefix { $0.isASCII && $0.isNumber }.count
        let radical = String(dropLast(digits))
        let trailingDigits = String(suffix(digits))
        let lowercased = radical.lowercased()
        if lowercased.isEmpty || EnglishInflections.uncountables.contains(where: { radical.endsWithWord($0) }) {
            return self
        }
        for (word, inflection) in irregular where radical.endsWithWord(word) {
            return Self.replacingSuffix(of: radical, length: word.count, with: inflection) + trailingDigits
        }
        for rule in rules where lowercased.hasSuffix(rule.suffix) {
            return Self.replacingSuffix(of: radical, length: rule.suffix.count, with: rule.replacement) + trailingDigits
        }
        return self
    }

    /// Whether the name ends with the lowercase word, as a whole word:
    /// "person", "team_person" and "teamPerson" end with "person";
    /// "salesperson" does not.
    private func endsWithWord(_ word: String) -> Bool {
        guard lowercased().hasSuffix(word) else { return false }
        let before = dropLast(word.count)
        guard let last = before.last else { return true }
        return last == "_" || suffix(word.count).first?.isUppercase == true
    }

    /// The word with its last `length` characters replaced, keeping the
    /// case of the first replaced character.
    private static func replacingSuffix(of word: String, length: Int, with replacement: String) -> String {
        let kept = word.dropLast(length)
        let replaced = word.suffix(length)
        if let first = replaced.first, first.isUppercase, let replacementFirst = replacement.first {
            return kept + replacementFirst.uppercased() + replacement.dropFirst()
        }
        return kept + replacement
    }
}

/// The rules of ``Swift/String/pluralized`` and ``Swift/String/singularized``.
private enum EnglishInflections {
    /// Words without plural.
    static let uncountables: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans",
        "police", "news", "data", "metadata", "feedback", "software", "hardware", "staff", "deer",
        "aircraft", "advice", "traffic", "music", "luggage", "baggage", "furniture",
    ]

    /// Singular -> plural, for the words no rule inflects.
    static let irregularPlurals: [String: String] = [
        "person": "people", "man": "men", "woman": "women", "child": "children", "sex": "sexes", "move": "moves",
        "zombie": "zombies", "ox": "oxen", "mouse": "mice", "louse": "lice", "goose": "geese",
        "foot": "feet", "tooth": "teeth", "quiz": "quizzes", "criterion": "criteria",
    ]

    /// Plural -> singular, for the words no rule inflects.
    static let irregularSingulars: [String: String] = Dictionary(
        uniqueKeysWithValues: irregularPlurals.map { ($1, $0) })

    /// Suffix rules, the first matching one applies.
    static let pluralRules: [(suffix: String, replacement: String)] = [
        ("matrix", "matrices"), ("vertex", "vertices"), ("index", "indices"),
        ("octopus", "octopi"), ("virus", "viri"), ("axis", "axes"), ("testis", "testes"),
        ("alias", "aliases"), ("status", "statuses"), ("bus", "buses"),
        ("buffalo", "buffaloes"), ("tomato", "tomatoes"), ("hive", "hives"),
        ("sis", "ses"), ("tum", "ta"), ("ium", "ia"),
        ("quy", "quies"), ("ay", "ays"), ("ey", "eys"), ("iy", "iys"), ("oy", "oys"), ("uy", "uys"), ("yy", "yys"),
        ("y", "ies"), ("x", "xes"), ("ch", "ches"), ("ss", "sses"), ("sh", "shes"),
        ("ife", "ives"), ("lf", "lves"), ("rf", "rves"),
        ("s", "s"), ("", "s"),
    ]

    /// Suffix rules, the first matching one applies.
    static let singularRules: [(suffix: String, replacement: String)] = [
        ("matrices", "matrix"), ("vertices", "vertex"), ("indices", "index"),
        ("octopi", "octopus"), ("octopuses", "octopus"), ("viri", "virus"), ("viruses", "virus"),
        ("axes", "axis"), ("testes", "testis"), ("crises", "crisis"),
        ("aliases", "alias"), ("statuses", "status"), ("buses", "bus"),
        ("analyses", "analysis"), ("bases", "basis"), ("diagnoses", "diagnosis"), ("parentheses", "parenthesis"),
        ("prognoses", "prognosis"), ("synopses", "synopsis"), ("theses", "thesis"),
        ("movies", "movie"), ("shoes", "shoe"), ("hives", "hive"), ("tives", "tive"), ("databases", "database"),
        ("oes", "o"), ("ives", "ife"), ("lves", "lf"), ("rves", "rf"),
        ("quies", "quy"), ("ies", "y"),
        ("xes", "x"), ("ches", "ch"), ("sses", "ss"), ("shes", "sh"),
        ("ta", "tum"), ("ia", "ium"),
        ("ss", "ss"), ("us", "us"), ("is", "is"), ("s", ""),
    ]
}
