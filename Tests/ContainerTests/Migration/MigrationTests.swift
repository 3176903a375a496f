import Container
import Foundation
import TestSupport
import Testing

/// The Documents migration run to its end, stopped and resumed, and refused.
@Suite struct MigrationTests {
    private func makeContainer(_ temp: TemporaryDirectory) throws -> AppContainer {
        try AppContainer.create(at: temp.url.appendingPathComponent("App"), bundleName: "App")
    }

    @Test(arguments: MigrationDestination.allCases)
    func movesEveryItemOnceAndEmptiesDocuments(to destination: MigrationDestination) throws {
        let temp = try TemporaryDirectory("migrate")
        let container = try makeContainer(temp)
        let tree = try MigrationTree.make(in: container, files: 300)
        var reports: [MigrationProgress] = []
        let report = try ContainerMigration(container: container, to: destination).run { reports.append($0) }

        let target = destination.directory.relativePath
        #expect(try MigrationTree.scan(container, target) == tree.expected)
        #expect(try MigrationTree.scan(container, "Documents").isEmpty)
        #expect(report.totalItems == tree.expected.count)
        #expect(report.moved == tree.expected.count)
        #expect(report.alreadyMoved == 0 && report.vanished == 0 && report.duplicatesRemoved == 0)
        #expect(!report.resumed)
        #expect(report.directoriesRemoved == 13)

        // Progress: one report before the first item, then one per item,
        // never going back, ending at the total.
        #expect(reports.count == tree.expected.count + 1)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.completedItems < $1.completedItems && $0.completedBytes <= $1.completedBytes })
        #expect(reports.first?.completedItems == 0)
        #expect(reports.last?.isFinished == true)
        #expect(reports.last?.completedBytes == report.totalBytes)

        // The flag: every file and directory moved to Application Support
        // carries it; nothing moved to Caches needs it.
        for (path, kind) in tree.expected where !kind.hasPrefix("link") {
            #expect(try container.isExcludedFromBackup(target + "/" + path) == destination.excludesFromBackup, "\(path)")
        }
        // The journal is gone.
        #expect(try ContainerMigration(container: container, to: destination).pendingProgress() == nil)
    }

    @Test func linksMoveAsLinksAndAreNeverFollowed() throws {
        let temp = try TemporaryDirectory("migrate-links")
        let container = try makeContainer(temp)
        // A link to a directory outside the container, with a file in it
        // that a migration following links would move.
        let outside = temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: container.url(forRelativePath: "Documents/escape").path,
                                                   withDestinationPath: outside.path)
        try container.writeAtomically(Data("a".utf8), to: "Documents/a.txt")

        let report = try ContainerMigration(container: container, to: .applicationSupport).run()
        #expect(report.moved == 2)
        let moved = container.url(forRelativePath: "Library/Application Support/escape").path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: moved) == outside.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["secret.txt"])
        #expect(try Data(contentsOf: outside.appendingPathComponent("secret.txt")) == Data("keep me".utf8))
        #expect(try container.contentsOfDirectory("Documents").isEmpty)
    }

    @Test func aLinkSwappedInForASourceDirectoryIsNotFollowed() throws {
        let temp = try TemporaryDirectory("migrate-swap")
        let container = try makeContainer(temp)
        try container.createDirectory("Documents/folder")
        for index in 0..<3 { try container.writeAtomically(Data("\(index)".utf8), to: "Documents/folder/\(index).txt") }
        let outside = temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        for index in 0..<3 { try Data("outside".utf8).write(to: outside.appendingPathComponent("\(index).txt")) }

        // Stop after the plan is written and the directory made, then swap
        // the folder for a link to the outside directory of the same shape.
        var migration = ContainerMigration(container: container, to: .caches)
        migration.batchSize = 1
        #expect(throws: MigrationError.self) {
            _ = try migration.run { progress in if progress.completedItems == 1 { throw CancellationError() } }
        }
        let folder = container.url(forRelativePath: "Documents/folder").path
        try FileManager.default.moveItem(atPath: folder, toPath: temp.url.appendingPathComponent("parked").path)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: outside.path)

        _ = try? migration.run()
        // Nothing outside moved; whatever the job did, it did inside.
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted() == ["0.txt", "1.txt", "2.txt"])
    }

    @Test func stoppedByItsHandlerThenResumedFinishesWithEveryItemOnce() throws {
        let temp = try TemporaryDirectory("migrate-stop")
        let container = try makeContainer(temp)
        let tree = try MigrationTree.make(in: container, files: 200, seed: 7)
        var migration = ContainerMigration(container: container, to: .caches)
        migration.batchSize = 16
        var seen: [Int] = []
        do {
            _ = try migration.run { progress in
                seen.append(progress.completedItems)
                if progress.completedItems == 50 { throw CancellationError() }
            }
            Issue.record("the handler's error did not stop the job")
        } catch {
            #expect(error.code == .stopped)
        }
        let pending = try #require(try migration.pendingProgress())
        #expect(pending.completedItems == 50)
        #expect(pending.totalItems == tree.expected.count)

        let report = try migration.run { seen.append($0.completedItems) }
        #expect(report.resumed)
        #expect(report.moved == tree.expected.count - 50)
        // Resumed progress starts where the first run stopped.
        #expect(seen.prefix(51) == ArraySlice(0...50))
        #expect(Array(seen.dropFirst(51)) == Array(50...tree.expected.count))
        #expect(try MigrationTree.scan(container, "Library/Caches") == tree.expected)
        #expect(try MigrationTree.scan(container, "Documents").isEmpty)
    }

    @Test func aConflictAtTheDestinationIsRefusedBeforeAnythingMoves() throws {
        let temp = try TemporaryDirectory("migrate-conflict")
        let container = try makeContainer(temp)
        try container.writeAtomically(Data("mine".utf8), to: "Documents/a.txt")
        try container.writeAtomically(Data("b".utf8), to: "Documents/b.txt")
        try container.writeAtomically(Data("theirs".utf8), to: "Library/Caches/b.txt")
        do {
            _ = try ContainerMigration(container: container, to: .caches).run()
            Issue.record("a conflict was not refused")
        } catch {
            #expect(error.code == .conflict)
            #expect(error.path == "Library/Caches/b.txt")
        }
        #expect(try container.contentsOfDirectory("Documents") == ["a.txt", "b.txt"])
        #expect(try container.read("Library/Caches/b.txt") == Data("theirs".utf8))
        #expect(try ContainerMigration(container: container, to: .caches).pendingProgress() == nil)
    }

    @Test func anIdenticalCopyAtBothPlacesLosesTheSourceOnResume() throws {
        let temp = try TemporaryDirectory("migrate-copy")
        let container = try makeContainer(temp)
        for name in ["a", "b", "c"] { try container.writeAtomically(Data(name.utf8), to: "Documents/\(name).txt") }
        var migration = ContainerMigration(container: container, to: .caches)
        migration.batchSize = 1
        _ = try? migration.run { progress in if progress.completedItems == 1 { throw CancellationError() } }
        // An outside copy of the next item, as a copy-based mover would leave.
        try container.copyItem("Documents/b.txt", to: "Library/Caches/b.txt")
        let report = try migration.run()
        #expect(report.duplicatesRemoved == 1)
        #expect(try MigrationTree.scan(container, "Library/Caches").count == 3)
        #expect(try container.contentsOfDirectory("Documents").isEmpty)
    }

    @Test func runsInTheBackgroundWithProgress() throws {
        let temp = try TemporaryDirectory("migrate-background")
        let container = try makeContainer(temp)
        let tree = try MigrationTree.make(in: container, files: 400, seed: 3)
        let task = ContainerMigration(container: container, to: .applicationSupport).start()
        let report = try task.wait()
        #expect(report.moved == tree.expected.count)
        #expect(task.isFinished)
        #expect(task.progress?.isFinished == true)
        #expect(try MigrationTree.scan(container, "Library/Application Support") == tree.expected)
    }
}
