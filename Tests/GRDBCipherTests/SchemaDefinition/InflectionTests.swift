import Testing
@testable import GRDBCipher

@Suite struct InflectionTests {
    @Test func plurals() {
        let cases = [
            "team": "teams", "country": "countries", "person": "people", "box": "boxes", "match": "matches",
            "player": "players", "players": "players", "child": "children", "status": "statuses", "key": "keys",
            "wolf": "wolves", "knife": "knives", "datum": "data", "equipment": "equipment", "ox": "oxen",
            "teamMember": "teamMembers", "team_person": "team_people", "salesperson": "salespersons",
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
            "wolves": "wolf", "knives": "knife", "data": "data", "news": "news", "employees": "employee",
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
