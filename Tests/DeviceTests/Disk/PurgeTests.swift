@testable import Device
import Foundation
import PropertyList
import Testing

@Suite struct PurgeTests {
    private func fill(_ app: InstalledApp, files: Int) throws {
        let container = try app.dataContainer()
        try container.createDirectory("Library/Caches/images/deep")
        for index in 0..<files {
            try container.writeAtomically(Data(repeating: 1, count: 5000), to: "Library/Caches/images/deep/\(index).png")
        }
        try container.writeAtomically(Data("t".utf8), to: "tmp/upload.part")
        try container.writeAtomically(Data("keep".utf8), to: "Documents/keep.txt")
    }

    @Test func purgeEmptiesCachesAndTmpButSparesARunningApp() throws {
        let fixture = try DeviceFixture()
        let idle = try fixture.install(identifier: "com.example.idle")
        let busy = try fixture.install(identifier: "com.example.busy")
        try fill(idle, files: 20)
        try fill(busy, files: 20)
        let run = try fixture.device.run(busy.bundleID, delegate: EmptyDelegate())
        try run.launch()

        var updates: [PurgeProgress] = []
        let report = try fixture.device.purge { updates.append($0) }
        #expect(report.skippedRunning == ["com.example.busy"])
        #expect(report.apps.map(\.bundleID) == ["com.example.idle"])
        #expect(report.files == 21)
        #expect(report.directories == 2)
        #expect(report.bytes >= 20 * 5000)
        #expect(updates.last?.removed == 23)
        #expect(updates.last?.total == 23)

        let idleContainer = try idle.dataContainer()
        #expect(try idleContainer.contentsOfDirectory("Library/Caches").isEmpty)
        #expect(try idleContainer.contentsOfDirectory("tmp").isEmpty)
        #expect(idleContainer.fileExists("Documents/keep.txt"))
        let busyContainer = try busy.dataContainer()
        #expect(try busyContainer.contentsOfDirectory("Library/Caches/images/deep").count == 20)
        #expect(busyContainer.fileExists("tmp/upload.part"))

        try run.terminate()
        let second = try fixture.device.purge()
        #expect(second.apps.map(\.bundleID) == ["com.example.busy", "com.example.idle"])
        #expect(second.files == 21)
        #expect(try busyContainer.contentsOfDirectory("Library/Caches").isEmpty)
    }

    /// The group's rules table marks its Library/Caches and tmp purgeable:
    /// the cleaner empties them once no app of the group runs, and keeps
    /// what the apps share elsewhere (Library/Preferences, their own files).
    @Test func aGroupsCachesArePurgedOnceNoneOfItsAppsRuns() throws {
        let fixture = try DeviceFixture()
        let groups: PropertyListValue = ["com.apple.security.application-groups": ["group.com.example.shared"]]
        _ = try fixture.device.install(bundleAt: try fixture.bundle(identifier: "com.example.one", entitlements: groups))
        let two = try fixture.device.install(bundleAt: try fixture.bundle(identifier: "com.example.two", entitlements: groups))
        _ = try fixture.install(identifier: "com.example.alone")
        let shared = try #require(two.groupContainers["group.com.example.shared"])
        let files = FileManager.default
        try files.createDirectory(at: shared.appendingPathComponent("Library/Caches/thumbs"), withIntermediateDirectories: true)
        try files.createDirectory(at: shared.appendingPathComponent("Library/Preferences"), withIntermediateDirectories: true)
        for index in 0..<5 {
            try Data(repeating: 7, count: 6000).write(to: shared.appendingPathComponent("Library/Caches/thumbs/\(index).jpg"))
        }
        try Data("shared".utf8).write(to: shared.appendingPathComponent("Library/Preferences/group.com.example.shared.plist"))
        try Data("db".utf8).write(to: shared.appendingPathComponent("shared.sqlite"))

        let run = try fixture.device.run(two.bundleID, delegate: EmptyDelegate())
        try run.launch()
        let spared = try fixture.device.purge()
        #expect(spared.skippedRunningGroups == ["group.com.example.shared"])
        #expect(spared.groups.isEmpty)
        #expect(try files.contentsOfDirectory(atPath: shared.appendingPathComponent("Library/Caches/thumbs").path).count == 5)

        try run.terminate()
        let report = try fixture.device.purge()
        #expect(report.skippedRunningGroups.isEmpty)
        #expect(report.groups.map(\.bundleID) == ["group.com.example.shared"])
        #expect(report.groups.first?.files == 5)
        #expect(report.groups.first?.directories == 1)
        #expect((report.groups.first?.bytes ?? 0) >= 5 * 6000)
        #expect(try files.contentsOfDirectory(atPath: shared.appendingPathComponent("Library/Caches").path).isEmpty)
        #expect(files.fileExists(atPath: shared.appendingPathComponent("Library/Preferences/group.com.example.shared.plist").path))
        #expect(files.fileExists(atPath: shared.appendingPathComponent("shared.sqlite").path))
        #expect(report.files == 5)
    }

    @Test func bootCleansTmpOfAppsThatAreNotRunningButKeepsCaches() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        try fill(app, files: 3)
        let report = try fixture.device.boot()
        #expect(report.files == 1)
        let container = try app.dataContainer()
        #expect(try container.contentsOfDirectory("tmp").isEmpty)
        #expect(try container.contentsOfDirectory("Library/Caches/images/deep").count == 3)
    }

    @Test func linksInCachesAreRemovedNotFollowed() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        let outside = fixture.temp.url.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: outside.appendingPathComponent("precious"))
        try FileManager.default.createSymbolicLink(at: app.dataContainerURL.appendingPathComponent("Library/Caches/link"),
                                                   withDestinationURL: outside)
        _ = try fixture.device.purge()
        #expect(FileManager.default.fileExists(atPath: outside.appendingPathComponent("precious").path))
        #expect(try app.dataContainer().contentsOfDirectory("Library/Caches").isEmpty)
    }
}
