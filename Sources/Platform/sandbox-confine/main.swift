// The confinement trampoline `ConfinedLaunch` spawns: it confines itself
// with Landlock, then execs the app's program (see `ConfinementTrampoline`).
import LaunchCore

ConfinementTrampoline.main(CommandLine.arguments)
