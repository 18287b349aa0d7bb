/// The text output of a dump: it forwards to the `TextOutputStream` given to
/// the dump method, or to the standard output.
///
/// Besides writing, a format can ask for a blank line before whatever comes
/// next with ``margin()``.
public struct DumpStream {
    private var base: any TextOutputStream
    private var wantsBlankLine = false

    /// `base`, or the standard output when nil.
    init(_ base: (any TextOutputStream)?) {
        self.base = base ?? StandardOutput()
    }

    /// Asks for a blank line before the next non-empty text, unless that text
    /// starts a line by itself (it begins with `"\n"`).
    public mutating func margin() {
        wantsBlankLine = true
    }

    /// Writes `string` followed by a new line.
    mutating func writeLine(_ string: String) {
        write(string)
        write("\n")
    }
}

extension DumpStream: TextOutputStream {
    /// Writes `string`, after the blank line that ``margin()`` asked for.
    public mutating func write(_ string: String) {
        if wantsBlankLine, let first = string.first {
            wantsBlankLine = false
            if first != "\n" { base.write("\n") }
        }
        base.write(string)
    }
}

/// The process's standard output, as a `TextOutputStream`.
private struct StandardOutput: TextOutputStream {
    func write(_ string: String) {
        print(string, terminator: "")
    }
}
