// Runs the programs named on the command line (all of them with no argument) and prints
// their transcripts. The same file serves both sides of the harness.
runPrograms(CommandLine.arguments.dropFirst())
