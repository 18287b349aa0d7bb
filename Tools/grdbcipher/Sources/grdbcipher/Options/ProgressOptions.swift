import ArgumentParser

/// `--progress` / `--no-progress`: the progress bar on standard error. By
/// default it shows when standard error is a terminal and the work lasts
/// more than half a second.
struct ProgressOptions: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help: "Show a progress bar on standard error (default: only when it is a terminal).")
    var progress: Bool?

    func makeBar(label: String) -> ProgressBar {
        switch progress {
        case .some(true): return ProgressBar(label: label, enabled: true, delay: 0)
        case .some(false): return ProgressBar(label: label, enabled: false, delay: 0)
        case nil: return ProgressBar(label: label, enabled: Terminal.standardErrorIsTerminal, delay: 0.5)
        }
    }
}
