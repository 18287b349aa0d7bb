#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

let inflectionPrograms: [Program] = [
    Program("inflections-default") {
        let words = [
            "team", "country", "person", "box", "match", "player", "players", "child", "status", "key", "wolf",
            "knife", "datum", "equipment", "ox", "teamMember", "team_person", "salesperson", "player2", "Team",
            "analysis", "teams", "countries", "people", "boxes", "matches", "children", "statuses", "wolves",
            "knives", "data", "news", "employees", "addresses", "address", "analyses", "archives", "movies",
            "bookAuthor", "author", "authors", "category", "categories", "index", "indices", "matrix", "vertex",
            "quiz", "mouse", "mice", "man", "woman", "women", "sheep", "fish", "series", "species", "bus",
            "buses", "alias", "aliases", "octopus", "virus", "cactus", "crisis", "phenomenon", "criterion",
            "house", "houses", "shoe", "shoes", "hero", "potato", "photo", "life", "leaf", "half", "axis",
            "information", "rice", "money", "police", "zombie", "move", "sex", "tooth", "foot", "goose",
            "user_account", "userAccount", "item1", "Player", "PERSON", "",
            "leaf", "leaves", "loaf", "thief", "chief", "roof", "proof", "hoof", "calf", "elf", "self", "shelf", "scarf", "dwarf", "wharf",
            "teeth", "geese", "feet", "criteria", "cafe", "safe", "belief", "reef", "beef", "sheaf", "knives", "wives", "lives",
            "salespeople", "humans", "human", "german", "woman", "workman", "manager", "men", "chairmen", "kids", "sexes",
            "bias", "biases", "canvas", "canvases", "focus", "focuses", "gas", "gases", "lens", "lenses", "specimen", "specimens",
            "advice", "advices", "corps", "dice", "kudos", "offspring", "oxenfoo", "mp3fish", "mp3ox", "series", "bigSeries",
            "movies", "moves", "database", "databases", "quizzes", "oxen", "axes", "tests", "crises", "indexes", "vertices", "matrices",
        ]
        for word in words {
            step("'\(word)'") { "\(Inflections.default.pluralize(word)) / \(Inflections.default.singularize(word))" }
        }
        var custom = Inflections()
        custom.irregularSuffix("foot", "feet")
        custom.irregularSuffix("cow", "kine")
        custom.uncountableWords(["Sheep"])
        custom.plural("(ox)$", "$1en")
        var zeros = Inflections()
        zeros.plural("o", "0")
        step("all matches") { zeros.pluralize("foo") }
        for word in ["foot", "Foot", "bigFoot", "big_foot2", "feet", "cow", "Cow", "kine", "sheep", "blackSheep", "box", "cat"] {
            step("custom '\(word)'") { "\(custom.pluralize(word)) / \(custom.singularize(word))" }
        }
    },
]
