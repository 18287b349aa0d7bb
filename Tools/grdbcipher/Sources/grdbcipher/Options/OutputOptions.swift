import ArgumentParser

/// `--replace`: whether an existing output file may be replaced.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Replace the output file if it exists (default: refuse, exit status 4).")
    var replace = false
}
