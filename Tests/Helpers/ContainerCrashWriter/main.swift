// `container-crash-writer`: the other process of the container's
// crash-consistency and file-size-limit tests.
//
//   container-crash-writer loop <root> <path> <size>
//       Rewrites <path> atomically forever with generation 1, 2, 3, …
//       (see CrashPayload); the test kills it at random moments.
//   container-crash-writer limit <root> <path> <limit-bytes> <size>
//       Sets RLIMIT_FSIZE, tries one atomic write of <size> bytes and prints
//       the resulting ContainerError code (or "ok").
//   container-crash-writer full <root> <path> <size>
//       Run on a small file system of its own (the test mounts one): makes a
//       container at <root>, writes <path>, fills the disk, tries one atomic
//       write of <size> bytes and prints the error code, whether <path> still
//       holds the old content, and whether a temporary file was left.
//   container-crash-writer migrate <root> <caches|support> <batch>
//       Prints "ready", then runs (or resumes) the container's Documents
//       migration to the end, journalling every <batch> items, and prints
//       "done"; the test kills it at random moments.
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
case "full":
    guard let size = Int(arguments[4]) else { fail("bad size") }
    do {
        let full = try AppContainer.create(at: root)
        let old = Data(repeating: 0x41, count: 1000)
        try full.writeAtomically(old, to: path)
        var filler = 0
        while true {
            do { try full.writeAtomically(Data(count: 16 * 1024), to: "Library/filler-\(filler)") } catch let error as ContainerError {
                guard error.code == .diskFull else { fail("filling gave \(error)") }
                break
            }
            filler += 1
        }
        var result = "ok"
        do { try full.writeAtomically(Data(repeating: 0x42, count: size), to: path) } catch let error as ContainerError {
            result = "\(error.code)"
        }
        let intact = try full.read(path) == old ? "intact" : "changed"
        let directory = (path as NSString).deletingLastPathComponent
        let leftovers = try full.contentsOfDirectory(directory).contains { $0.hasPrefix(".sb-") } ? "leftover" : "clean"
        print("\(result) \(intact) \(leftovers)")
    } catch {
        fail("full: \(error)")
    }
case "migrate":
    guard let destination = MigrationDestination(rawValue: path), let batch = Int(arguments[4]) else { fail("bad migrate arguments") }
    var migration = ContainerMigration(container: container, to: destination)
    migration.batchSize = batch
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    do { _ = try migration.run() } catch { fail("migrate: \(error)") }
    print("done")
default:
    fail("unknown mode \(arguments[1])")
}
