@testable import Device
import Foundation
import Testing
import TestSupport

/// `device-crash-worker` updates an app back and forth between two versions
/// and installs and uninstalls a second app, forever; it is killed with
/// SIGKILL at random moments. After every kill, opening the device must
/// give a consistent state: the first app at version 1 or 2 with all its
/// data, the second app fully installed or fully absent, no stray containers.
@Suite struct CrashConsistencyTests {
    static let kills = 60

    @Test func killedUpdatesNeverLeaveAHalfAppliedApp() throws {
        let fixture = try DeviceFixture("crash")
        let versionOne = try fixture.bundle(version: "1", files: ["Base.lproj/Main.strings": "\"a\" = \"1\";"])
        let versionTwo = try fixture.bundle(version: "2", files: ["Base.lproj/Main.strings": "\"a\" = \"2\";"])
        let other = try fixture.bundle(identifier: "com.example.other", name: "Other")
        let app = try fixture.device.install(bundleAt: versionOne)
        let container = try app.dataContainer()
        let document = Data(repeating: 0x5A, count: 64 * 1024)
        try container.writeAtomically(document, to: "Documents/user.bin")
        try container.writeAtomically(Data("prefs".utf8), to: "Library/Preferences/com.example.notes.plist")
        try container.writeAtomically(Data("support".utf8), to: "Library/Application Support/state")
        for index in 0..<50 { try container.writeAtomically(Data("\(index)".utf8), to: "Documents/file-\(index).txt") }

        var versions = Set<String>()
        var otherStates = Set<Bool>()
        var interrupted = 0
        for round in 0..<Self.kills {
            let pipe = Pipe()
            let worker = try Helper.start("device-crash-worker",
                                          ["loop", fixture.device.root.path, versionOne.path, versionTwo.path, other.path],
                                          output: pipe)
            // Wait for "ready" (start-up and recovery are over, however slow
            // the machine) and for 0 to 3 finished operations, then kill
            // somewhere in the next few. Counting operations rather than
            // only sleeping is what makes every phase of the loop reachable
            // on a loaded machine, where 80 ms may not finish even one.
            try Self.waitForLines(1 + Int.random(in: 0...3), from: pipe.fileHandleForReading)
            LibC.sleep(microseconds: UInt32.random(in: 0...80_000))
            LibC.kill(worker.processIdentifier)
            worker.waitForExit()

            // A kill inside an operation leaves a journal or unnamed containers.
            let before = fixture.containerDirectories("Data/Application") + fixture.containerDirectories("Bundle/Application")
            let journalled = FileManager.default.fileExists(atPath: fixture.device.layout.journal.path)
            let device = try Device.open(at: fixture.device.root)
            let after = fixture.containerDirectories("Data/Application") + fixture.containerDirectories("Bundle/Application")
            if journalled || before != after { interrupted += 1 }
            let current = try device.app("com.example.notes")
            versions.insert(current.version)
            #expect(["1", "2"].contains(current.version), "round \(round)")
            #expect(try current.bundle.verifySeal() == .valid, "round \(round)")
            let strings = try current.bundle.contents(ofRelativePath: "Base.lproj/Main.strings")
            #expect(strings == Data("\"a\" = \"\(current.version)\";".utf8), "round \(round): bundle of another version")
            let data = try current.dataContainer()
            #expect(try data.read("Documents/user.bin") == document, "round \(round)")
            #expect(try data.read("Library/Preferences/com.example.notes.plist") == Data("prefs".utf8), "round \(round)")
            #expect(try data.read("Library/Application Support/state") == Data("support".utf8), "round \(round)")
            #expect(try data.contentsOfDirectory("Documents").count == 51, "round \(round)")

            let ids = try device.installedBundleIDs()
            let otherInstalled = ids.contains("com.example.other")
            otherStates.insert(otherInstalled)
            if otherInstalled { #expect(try device.app("com.example.other").bundle.verifySeal() == .valid) }
            let expected = otherInstalled ? 2 : 1
            #expect(fixture.containerDirectories("Data/Application").count == expected, "round \(round): stray data containers")
            #expect(fixture.containerDirectories("Bundle/Application").count == expected, "round \(round): stray bundles")
            #expect(!FileManager.default.fileExists(atPath: device.layout.journal.path))
        }
        // The kills landed in different phases of the worker's loop.
        #expect(versions.count == 2)
        #expect(otherStates.count == 2)
        #expect(interrupted > 0, "no kill landed inside an operation")
        print("device crash test: \(Self.kills) kills, \(interrupted) inside an operation")
    }

    /// The worker ended its output before printing what was waited for.
    struct WorkerStopped: Error {}

    /// Reads the worker's output until it has printed `count` lines.
    static func waitForLines(_ count: Int, from output: FileHandle) throws {
        var lines = 0
        while lines < count {
            let chunk = output.availableData
            if chunk.isEmpty { throw WorkerStopped() }  // end of file: the worker exited
            lines += chunk.filter { $0 == UInt8(ascii: "\n") }.count
        }
    }
}
