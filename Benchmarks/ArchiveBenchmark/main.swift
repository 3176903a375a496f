import Foundation
import KeyedArchive
import PropertyList

// archive-benchmark: archives and unarchives one object graph with this
// module and with Foundation's NSKeyedArchiver/NSKeyedUnarchiver in the same
// process, and prints a Markdown table (see docs/PERFORMANCE.md).
//
// Usage: archive-benchmark [items] [repetitions] [--ours-only]
//   --ours-only  skip Foundation (for profiling this module alone)

let oursOnly = CommandLine.arguments.contains("--ours-only")
let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--ours-only" }
let itemCount = arguments.first.flatMap(Int.init) ?? 25_000
let repetitions = arguments.dropFirst().first.flatMap(Int.init) ?? 5

/// Best wall time of `repetitions` runs of `body`, and its last result.
func measure<R>(_ repetitions: Int, _ body: () throws -> R) rethrows -> (seconds: Double, result: R) {
    var best = Double.infinity
    var result: R?
    for _ in 0..<repetitions {
        result = nil  // free the previous result before the clock starts
        let start = ContinuousClock.now
        let value = try body()
        let elapsed = ContinuousClock.now - start
        result = value
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds)
    }
    guard let result else { fail("repetitions must be at least 1") }
    return (best, result)
}

/// Stops the benchmark with a message: a wrong result makes the timings meaningless.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("archive-benchmark: \(message)\n".utf8))
    exit(1)
}

func format(_ seconds: Double) -> String {
    seconds >= 1 ? String(format: "%.2f s", seconds) : String(format: "%.1f ms", seconds * 1000)
}

let items = GraphGenerator.items(itemCount: itemCount, ownerCount: max(1, itemCount / 20))
let foundationRoot = GraphGenerator.foundationItems(items)

// Ours.
let ourArchive = try measure(repetitions) { try KeyedArchiver.archivedData(withRootObject: items) }
let ourUnarchive = try measure(repetitions) { try KeyedUnarchiver.unarchive([Item].self, from: ourArchive.result) }
let objectCount = try KeyedArchiveTable(data: ourArchive.result).objects.count - 1
if oursOnly {
    print("ours: archive \(format(ourArchive.seconds)), unarchive \(format(ourUnarchive.seconds)), \(objectCount) objects")
    exit(0)
}

// Foundation.
let foundationRepetitions = max(1, repetitions / 2)
let foundationArchive = try measure(foundationRepetitions) {
    try NSKeyedArchiver.archivedData(withRootObject: foundationRoot, requiringSecureCoding: false)
}
let foundationUnarchive = try measure(foundationRepetitions) { () throws -> NSArray? in
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: foundationArchive.result)
    unarchiver.requiresSecureCoding = false
    defer { unarchiver.finishDecoding() }
    return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NSArray
}
let foundationObjectCount = try KeyedArchiveTable(data: foundationArchive.result).objects.count - 1

// Both must have read back what was written.
let ours = ourUnarchive.result
guard ours.count == items.count, zip(ours, items).allSatisfy({ $0.name == $1.name && $0.value == $1.value && $0.owner.aliases == $1.owner.aliases }),
      ours.count < 2 || Set(ours.map { ObjectIdentifier($0.owner) }).count <= items.count / 20 + 1 else {
    fail("our round trip lost data")
}
guard let theirs = foundationUnarchive.result, theirs.count == items.count else {
    fail("Foundation's round trip lost data")
}
// Our archive must also be readable by Foundation, and Foundation's by us.
let crossRead = try KeyedUnarchiver(data: foundationArchive.result).decodeRootGraph()
guard crossRead.elements?.count == items.count else { fail("we could not read Foundation's archive") }

print("## Keyed archive benchmark")
print("")
print("- graph: \(itemCount) items over \(max(1, itemCount / 20)) shared owners; "
      + "\(objectCount) `$objects` entries in our archive (\(ourArchive.result.count) bytes), "
      + "\(foundationObjectCount) in Foundation's (\(foundationArchive.result.count) bytes)")
print("- best of \(repetitions) (ours) / \(foundationRepetitions) (Foundation) runs, release build, binary format")
print("")
print("| operation | ours | Foundation | speed-up |")
print("|---|---:|---:|---:|")
print("| archive | \(format(ourArchive.seconds)) | \(format(foundationArchive.seconds)) | \(String(format: "%.1f", foundationArchive.seconds / ourArchive.seconds))× |")
print("| unarchive | \(format(ourUnarchive.seconds)) | \(format(foundationUnarchive.seconds)) | \(String(format: "%.1f", foundationUnarchive.seconds / ourUnarchive.seconds))× |")
