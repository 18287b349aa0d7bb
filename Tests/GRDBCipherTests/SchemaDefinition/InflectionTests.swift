import Testing
@testable import GRDBCipher

/// The default English inflections; the compat harness's inflections
/// program checks them against GRDB 7.10 on about 180 words.
@Suite struct InflectionTests {
    @Test func plurals() {
        let cases = [
            "team": "teams", "country": "countries", "person": "people", "box": "boxes", "match": "matches",
            "player": "players", "players": "players", "child": "children", "status": "statuses", "key": "keys",
            "wolf": "wolves", "knife": "knives", "datum": "data", "equipment": "equipment", "ox": "oxen",
            "teamMember": "teamMembers", "team_person": "team_people", "salesperson": "salespeople",
            "player2": "players2", "Team": "Teams", "analysis": "analyses",
        ]
        for (singular, plural) in cases {
            #expect(singular.pluralized == plural, "\(singular)")
        }
    }

    @Test func singulars() {
        let cases = [
            "teams": "team", "countries": "country", "people": "person", "boxes": "box", "matches": "match",
            "players": "player", "player": "player", "children": "child", "statuses": "status", "keys": "key",
            "wolves": "wolf", "knives": "knife", "data": "datum", "news": "news", "employees": "employee",
            "addresses": "address", "address": "address", "analyses": "analysis", "Teams": "Team",
            "archives": "archive", "movies": "movie",
        ]
        for (plural, singular) in cases {
            #expect(plural.singularized == singular, "\(plural)")
        }
    }

    @Test func uppercasingFirstCharacter() {
        #expect("id".uppercasingFirstCharacter == "Id")
        #expect("code".uppercasingFirstCharacter == "Code")
        #expect("".uppercasingFirstCharacter == "")
    }
}

/// The public `Inflections` API, as GRDB's: rules added by the application
/// come first, on the last word of a name, keeping trailing digits.
@Suite struct PublicInflectionsTests {
    @Test func theDefaultInflectionsAreTheBuiltInEnglishRules() {
        #expect(Inflections.default.pluralize("player") == "players")
        #expect(Inflections.default.pluralize("person") == "people")
        #expect(Inflections.default.singularize("people") == "person")
        #expect(Inflections.default.pluralize("player2") == "players2")
        #expect("teamPlayer".pluralized == Inflections.default.pluralize("teamPlayer"))
    }

    @Test func newInflectionsHaveNoRule() {
        let inflections = Inflections()
        #expect(inflections.pluralize("player") == "player")
        #expect(inflections.singularize("players") == "players")
    }

    @Test func irregularSuffixesWorkBothWaysOnTheLastWordAndKeepTheCase() {
        var inflections = Inflections()
        inflections.irregularSuffix("foot", "feet")
        #expect(inflections.pluralize("foot") == "feet")
        #expect(inflections.pluralize("Foot") == "Feet")
        #expect(inflections.pluralize("bigFoot") == "bigFeet")
        #expect(inflections.pluralize("big_foot2") == "big_feet2")
        #expect(inflections.pluralize("feet") == "feet")
        #expect(inflections.singularize("feet") == "foot")
        #expect(inflections.singularize("bigFeet") == "bigFoot")

        // Different first letters.
        inflections.irregularSuffix("cow", "kine")
        #expect(inflections.pluralize("cow") == "kine")
        #expect(inflections.pluralize("Cow") == "Kine")
        #expect(inflections.singularize("kine") == "cow")
    }

    @Test func rulesAddedLastComeFirstAndUncountablesStay() {
        var inflections = Inflections()
        inflections.plural("$", "s")
        inflections.plural("(ox)$", "$1en")
        inflections.singular("s$", "")
        #expect(inflections.pluralize("box") == "boxen")
        #expect(inflections.pluralize("cat") == "cats")
        #expect(inflections.singularize("cats") == "cat")
        // Results are remembered until the rules change.
        #expect(inflections.pluralize("sheep") == "sheeps")
        inflections.uncountableWords(["Sheep"])
        #expect(inflections.pluralize("sheep") == "sheep")
        #expect(inflections.pluralize("blackSheep") == "blackSheep")
    }

    @Test func pluralsOfPluralsStayAsGRDBs() {
        // A table named in the plural keeps its name as an association key.
        for word in ["people", "children", "women", "mice", "data", "salespeople"] {
            #expect(word.pluralized == word, "\(word)")
        }
        #expect("leaf".pluralized == "leaves")
        #expect("feet".singularized == "foot")
    }

    @Test func aCopyOfTheDefaultWithARuleKeepsTheEnglishRulesAfterIt() {
        var inflections = Inflections.default
        inflections.irregularSuffix("octopus", "octopodes")
        #expect(inflections.pluralize("octopus") == "octopodes")
        #expect(inflections.pluralize("player") == "players")
        #expect(Inflections.default.pluralize("octopus") != "octopodes")
    }
}
