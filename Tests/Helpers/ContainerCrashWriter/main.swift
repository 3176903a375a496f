// `container-crash-writer`: the other process of the container's
// crash-consistency and file-size-limit tests.
//
//   container-crash-writer loop <root> <path> <size>
//       Rewrites <path> atomically forever with generation 1, 2, 3, …
//       (see CrashPayload); the test kills it at random moments.
//   container-crash-writer limit <root> <path> <limit-bytes> <size>
//       Sets RLIMIT_FSIZE, tries one atomic write of <size> bytes and prints
//       the resulting ContainerError code (or "ok").
import Container
import Foundation

let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

guard arguments.count >= 5 else { fail("usage: container-crash-writer loop|limit <root> <path> …") }
let root = URL(fileURLWithPath: arguments[2])
let path = arguments[3]
let container: AppContainer
do { container = try AppContainer(existingAt: root) } catch { fail("cannot open the container: \(error)") }

switch arguments[1] {
case "loop":
    guard let size = Int(arguments[4]) else { fail("bad size") }
    var generation: UInt64 = 1
    while true {
        do { try container.writeAtomically(CrashPayload.make(generation: generation, size: size), to: path) }
        catch { fail("write failed: \(error)") }
        generation += 1
    }
case "limit":
    guard arguments.count >= 6, let limit = UInt64(arguments[4]), let size = Int(arguments[5]) else { fail("bad numbers") }
    guard Platform.limitFileSize(to: limit) else { fail("setrlimit failed") }
    do {
        try container.writeAtomically(Data(repeating: 0x42, count: size), to: path)
        print("ok")
    } catch let error as ContainerError {
        print("\(error.code)")
    } catch {
        print("other: \(error)")
    }
default:
    fail("unknown mode \(arguments[1])")
}
