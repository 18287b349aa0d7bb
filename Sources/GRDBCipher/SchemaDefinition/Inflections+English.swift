// The built-in English rules of Inflections.default: regular plurals, the
// common Latin and Greek endings, irregular and uncountable words. Written
// as rules of the public API, so that an application's rules take
// precedence over them in the same way as over each other.

extension Inflections {
    /// The built-in English inflections.
    static var english: Inflections {
        var inflections = Inflections()

        // Plurals: the last matching rule applies, so general rules first.
        inflections.plural("$", "s")
        inflections.plural("s$", "s")
        inflections.plural("^(ax|test)is$", "$1es")
        inflections.plural("(octop|vir)us$", "$1i")
        inflections.plural("(octop|vir)i$", "$1i")
        inflections.plural("(alias|status)$", "$1es")
        inflections.plural("(bu)s$", "$1ses")
        inflections.plural("(buffal|tomat|her)o$", "$1oes")
        inflections.plural("([ti])um$", "$1a")
        inflections.plural("([ti])a$", "$1a")
        inflections.plural("sis$", "ses")
        inflections.plural("(?:([^f])fe|([lr])f)$", "$1$2ves")
        inflections.plural("(hive)$", "$1s")
        inflections.plural("([^aeiouy]|qu)y$", "$1ies")
        inflections.plural("(x|ch|ss|sh)$", "$1es")
        inflections.plural("(matr|vert|ind)(?:ix|ex)$", "$1ices")
        inflections.plural("^(m|l)ouse$", "$1ice")
        inflections.plural("^(m|l)ice$", "$1ice")
        inflections.plural("^(ox)$", "$1en")
        inflections.plural("^(oxen)$", "$1")
        inflections.plural("(quiz)$", "$1zes")
        inflections.plural("(bias|canvas|focus|gas|lens)$", "$1es")

        // Singulars.
        inflections.singular("s$", "")
        inflections.singular("(ss)$", "$1")
        inflections.singular("(n)ews$", "$1ews")
        inflections.singular("([ti])a$", "$1um")
        inflections.singular("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis")
        inflections.singular("(^analy)(sis|ses)$", "$1sis")
        inflections.singular("([^f])ves$", "$1fe")
        inflections.singular("(hive)s$", "$1")
        inflections.singular("(tive)s$", "$1")
        inflections.singular("([lr])ves$", "$1f")
        inflections.singular("([^aeiouy]|qu)ies$", "$1y")
        inflections.singular("(s)eries$", "$1eries")
        inflections.singular("(m)ovies$", "$1ovie")
        inflections.singular("(x|ch|ss|sh)es$", "$1")
        inflections.singular("^(m|l)ice$", "$1ouse")
        inflections.singular("(bus)(es)?$", "$1")
        inflections.singular("(o)es$", "$1")
        inflections.singular("(shoe)s$", "$1")
        inflections.singular("(cris|test)(is|es)$", "$1is")
        inflections.singular("^(a)x[ie]s$", "$1xis")
        inflections.singular("(octop|vir)(us|i)$", "$1us")
        inflections.singular("(alias|status)(es)?$", "$1")
        inflections.singular("^(ox)en$", "$1")
        inflections.singular("(vert|ind)ices$", "$1ex")
        inflections.singular("(matr)ices$", "$1ix")
        inflections.singular("(quiz)zes$", "$1")
        inflections.singular("(database)s$", "$1")
        inflections.singular("(bias|canvas|focus|gas|lens)(es)?$", "$1")

        inflections.irregularSuffix("person", "people")
        inflections.irregularSuffix("man", "men")
        inflections.irregularSuffix("child", "children")
        inflections.irregularSuffix("sex", "sexes")
        inflections.irregularSuffix("move", "moves")
        inflections.irregularSuffix("zombie", "zombies")
        inflections.irregularSuffix("leaf", "leaves")
        inflections.irregularSuffix("foot", "feet")
        inflections.irregularSuffix("specimen", "specimens")

        inflections.uncountableWords([
            "advice", "corps", "dice", "equipment", "fish", "information", "jeans", "kudos", "money", "offspring",
            "police", "rice", "sheep", "species",
        ])
        return inflections
    }
}
