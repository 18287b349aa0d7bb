// The GRDB side: the workloads of Workloads/, built against GRDB 7.10.
await runSideBySide(arguments: CommandLine.arguments)
