import Container
import Foundation
import TestSupport
import Testing

/// A child process runs the Documents migration and is killed with SIGKILL
/// at random moments, several times per tree; after every kill each item is
/// in exactly one place with its content, and the restarted job finishes
/// with every item once at the destination and nothing left in Documents.
@Suite struct MigrationCrashTests {
    static let runs = 24

    @Test func killedAtRandomMomentsNeverLosesOrDuplicatesAnItem() throws {
        let temp = try TemporaryDirectory("migrate-kill")
        var midwayKills = 0
        var kills = 0
        // How long one job takes here, from the child's "ready" to its end,
        // so the kills can be spread over it.
        let span = try Self.measureOneJob(in: temp)
        for run in 0..<Self.runs {
            let destination: MigrationDestination = run % 2 == 0 ? .applicationSupport : .caches
            let container = try AppContainer.create(at: temp.url.appendingPathComponent("App\(run)"), bundleName: "App")
            let tree = try MigrationTree.make(in: container, files: 500, directories: 16, seed: UInt64(run + 100))
            var generator = SeededGenerator(seed: UInt64(run))
            // Up to three kills, each at a random moment after the child
            // says it is ready, over the time a whole job takes.
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let output = Pipe()
                let child = try CrashWriter.start(["migrate", container.root.path, destination.rawValue, "32"], output: output)
                _ = output.fileHandleForReading.availableData  // "ready" (or end of file if it failed)
                usleep(UInt32.random(in: 0...UInt32(span * 1_000_000), using: &generator))
                LibC.kill(child.processIdentifier)
                child.waitForExit()
                kills += 1
                let pending = try ContainerMigration(container: container, to: destination).pendingProgress()
                if let pending, pending.completedItems > 0, !pending.isFinished { midwayKills += 1 }
                try Self.expectEveryItemOnce(tree, container, destination, "run \(run)")
            }
            // The restart finishes the job (or finds it finished: a child
            // may have ended before its kill, and a later child then planned
            // an empty Documents).
            let pending = try ContainerMigration(container: container, to: destination).pendingProgress()
            let report = try ContainerMigration(container: container, to: destination).run()
            #expect(report.resumed == (pending != nil))
            #expect(report.totalItems == tree.expected.count || report.totalItems == 0)
            #expect(try MigrationTree.scan(container, destination.directory.relativePath) == tree.expected, "run \(run)")
            #expect(try MigrationTree.scan(container, "Documents").isEmpty, "run \(run)")
            #expect(try ContainerMigration(container: container, to: destination).pendingProgress() == nil)
            try FileManager.default.removeItem(at: container.root)
        }
        // The kills landed at different points of the job: some before its
        // first checkpoint or after its end, many in between.
        print("migration kills: \(kills) over a job of \(Int(span * 1000)) ms; inside the job after a checkpoint: \(midwayKills)")
        #expect(kills >= Self.runs)
        #expect(midwayKills > 0)
    }

    /// Seconds from the child's "ready" to its end, for one whole job on a
    /// tree like the test's.
    static func measureOneJob(in temp: TemporaryDirectory) throws -> TimeInterval {
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("Calibration"), bundleName: "App")
        _ = try MigrationTree.make(in: container, files: 500, directories: 16, seed: 99)
        let output = Pipe()
        let child = try CrashWriter.start(["migrate", container.root.path, "support", "32"], output: output)
        _ = output.fileHandleForReading.availableData
        let started = Date()
        child.waitForExit()
        let span = Date().timeIntervalSince(started)
        try FileManager.default.removeItem(at: container.root)
        return min(max(span, 0.005), 2)
    }

    /// Each item of the tree is at its source or its destination, never
    /// both, never neither, with its content (directories may be at both
    /// until the job ends).
    static func expectEveryItemOnce(_ tree: MigrationTree, _ container: AppContainer, _ destination: MigrationDestination,
                                    _ label: String) throws {
        let atSource = try MigrationTree.scan(container, "Documents")
        let atDestination = try MigrationTree.scan(container, destination.directory.relativePath)
        for (path, kind) in tree.expected {
            let here = atSource[path]
            let there = atDestination[path]
            if kind == "directory" { continue }
            #expect((here == nil) != (there == nil), "\(label): \(path) is \(here == nil ? "nowhere" : "in both places")")
            #expect((here ?? there) == kind, "\(label): \(path) changed")
        }
        let unknown = Set(atSource.keys).union(atDestination.keys).subtracting(tree.expected.keys)
        #expect(unknown.isEmpty, "\(label): unexpected items \(unknown.sorted())")
    }
}
