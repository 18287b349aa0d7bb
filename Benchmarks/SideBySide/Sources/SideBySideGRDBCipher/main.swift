// The GRDBCipher side: the workloads of Workloads/, built against GRDBCipher.
await runSideBySide(arguments: CommandLine.arguments)
