// swap-racer: the hostile app of the backup swap-race tests. It swaps pairs
// of names in a loop with renameat2(RENAME_EXCHANGE), so a file or
// directory of a container is, half of the time, a symbolic link to an
// outside file, a hard link to one, or a directory, while a backup or a
// restore runs.
//
// Usage: swap-racer --stop-file STOP [--link-target PATH] A:B [A:B ...]
//   Each A and B is a path (both on one file system). The pairs are swapped
//   in turn until the file STOP exists (the test makes it; a signal may be
//   blocked in a process a test runner spawns), then the swap count is
//   printed. With --link-target, a name of a
//   pair that has gone missing (a restore removed it) is made again as a
//   symbolic link to PATH, so the race goes on.
// Prints "ready" once the first round is done, and "swaps N" at the end.
// A test program: it calls the C library itself.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@_silgen_name("renameat2")
func c_renameat2(_ olddirfd: Int32, _ oldpath: UnsafePointer<CChar>, _ newdirfd: Int32,
                 _ newpath: UnsafePointer<CChar>, _ flags: UInt32) -> Int32

let renameExchange: UInt32 = 2
var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...(index + 1)) }
    return arguments[index + 1]
}
let linkTarget = option("--link-target")
let stopFile = option("--stop-file")
let pairs: [(String, String)] = arguments.compactMap { argument in
    guard let colon = argument.firstIndex(of: ":") else { return nil }
    return (String(argument[..<colon]), String(argument[argument.index(after: colon)...]))
}
guard !pairs.isEmpty else {
    let usage = Array("usage: swap-racer --stop-file STOP [--link-target PATH] A:B [A:B ...]\n".utf8)
    _ = write(2, usage, usage.count)
    exit(2)
}

var swaps = 0
var round = 0
while true {
    for (first, second) in pairs {
        if c_renameat2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0 {
            swaps += 1
        } else if errno == ENOENT, let linkTarget {
            var info = stat()
            for name in [first, second] where lstat(name, &info) != 0 {
                _ = symlink(linkTarget, name)
            }
        }
    }
    round += 1
    if round == 1 {
        let ready = Array("ready\n".utf8)
        _ = write(1, ready, ready.count)
    }
    if round % 64 == 0 {
        var info = stat()
        if let stopFile, stat(stopFile, &info) == 0 { break }
        // A short pause now and then leaves the other side some rounds
        // where the original is in place, so the race is between the two.
        sched_yield()
    }
}
let report = Array("swaps \(swaps)\n".utf8)
_ = write(1, report, report.count)
