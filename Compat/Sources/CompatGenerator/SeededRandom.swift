// The generator's randomness: a SplitMix64 stream, and draws that depend on nothing but the
// stream (no standard library algorithm whose use of the stream could change between Swift
// versions), so that a seed writes the same cases everywhere.

struct SeededRandom {
    private var state: UInt64

    /// The stream of case `index` of a run seeded with `seed`: each case has its own stream,
    /// so a case does not change when the number of cases does.
    init(seed: UInt64, index: Int) {
        state = seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03)
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// True with the given chance, in percent.
    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// One of the choices, drawn in proportion to its weight.
    mutating func weighted<T>(_ choices: [(Int, T)]) -> T {
        let total = choices.reduce(0) { $0 + $1.0 }
        var draw = below(total)
        for (weight, choice) in choices {
            if draw < weight { return choice }
            draw -= weight
        }
        return choices[choices.count - 1].1
    }
}
