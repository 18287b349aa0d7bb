// Inflections of names, for `belongsTo("team")` to find a table named
// "teams", for association keys, and to recognize a reference to the table
// being created ("player" in "players"): see Inflections.

extension String {
    /// "player" -> "Player"
    var uppercasingFirstCharacter: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }

    /// The plural of the name, by ``Inflections/default``.
    var pluralized: String {
        Inflections.default.pluralize(self)
    }

    /// The singular of the name, by ``Inflections/default``.
    var singularized: String {
        Inflections.default.singularize(self)
    }
}
