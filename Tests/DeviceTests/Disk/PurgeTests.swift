@testable import Device
import Foundation
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
