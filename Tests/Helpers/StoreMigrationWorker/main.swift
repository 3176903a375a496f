// `store-migration-worker`: the other process of the store's
// SIGKILL-during-migration tests.
//
//   store-migration-worker <store> <model contents file>...
//       Loads the models (oldest first), prints "ready", migrates the store
//       through them in one transaction and prints "done <steps> <seconds>", or
//       "error <code> <message>" and exits 1. The test kills it at random
//       moments.
import Foundation
import Store

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: store-migration-worker <store> <model contents file> <model contents file>...\n".utf8))
    exit(2)
}
do {
    let models = try arguments.dropFirst(2).map { try ObjectModel(contentsFile: $0) }
    // Unbuffered, so the test sees it before the migration starts.
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    let clock = ContinuousClock()
    let started = clock.now
    let report = try StoreMigrator.migrate(storeAtPath: arguments[1], through: models)
    let elapsed = clock.now - started
    print("done \(report.steps.count) \(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)")
} catch {
    print("error \(error)")
    exit(1)
}
