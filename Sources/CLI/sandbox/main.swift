import SandboxCLI

// The commands live in SandboxCLI; this target is only the process entry point.
await SandboxCommand.runFromCommandLine()
