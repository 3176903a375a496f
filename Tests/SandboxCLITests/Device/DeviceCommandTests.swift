import Foundation
import PropertyList
import TestSupport
import Testing

/// `sandbox device …` and the app commands, run as the built executable
/// with SANDBOX_HOME in a scratch directory.
@Suite struct DeviceCommandTests {
    struct Home {
        let directory: TemporaryDirectory

        init() throws { directory = try TemporaryDirectory() }

        func run(_ arguments: [String]) throws -> SandboxProcess.Result {
            try SandboxProcess.run(arguments, in: directory.url, subcommand: nil,
                                   environment: ["SANDBOX_HOME": directory.url.appendingPathComponent("home").path])
        }

        /// Writes `<name>.app` with an Info.plist and an executable.
        func bundle(_ name: String = "Notes", identifier: String = "com.example.notes", version: String = "1") throws -> String {
            let folder = "\(name)-\(version)/\(name).app"
            let info: PropertyListValue = ["CFBundleIdentifier": .string(identifier), "CFBundleVersion": .string(version),
                                           "CFBundleExecutable": .string(name)]
            try FileManager.default.createDirectory(at: directory.url.appendingPathComponent(folder), withIntermediateDirectories: true)
            _ = try directory.write(try info.encoded(as: .xml), to: "\(folder)/Info.plist")
            _ = try directory.write(Data("#!/bin/sh\n".utf8), to: "\(folder)/\(name)")
            return folder
        }
    }

    private func json(_ result: SandboxProcess.Result) throws -> PropertyListValue {
        try PropertyListValue.decode(result.standardOutput, as: .json)
    }

    @Test func createListInfoAndTheDefaultDevice() throws {
        let home = try Home()
        let created = try home.run(["device", "create", "default", "--capacity", "2G"])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(UUID(uuidString: created.output.trimmingCharacters(in: .whitespacesAndNewlines)) != nil)
        #expect(try home.run(["device", "create", "second"]).status == 0)
        let list = try json(try home.run(["device", "list", "--json"]))
        #expect(list["devices"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["default", "second"])
        let info = try json(try home.run(["device", "info", "--json"]))
        #expect(info["device"]?["name"]?.stringValue == "default")
        #expect(info["space"]?["total"]?.int64Value == 2 << 30)
        #expect(info["space"]?["isSimulated"]?.boolValue == true)
        #expect(info["locked"]?.boolValue == false)
        let again = try home.run(["device", "create", "default"])
        #expect(again.status == 1)
        #expect(again.errorLines.count == 1)
    }

    @Test func installContainerUpdateAndUninstall() throws {
        let home = try Home()
        #expect(try home.run(["device", "create", "ci"]).status == 0)
        let installed = try home.run(["install", try home.bundle(), "--device", "ci", "--json"])
        #expect(installed.status == 0, "\(installed.standardError)")
        #expect(try json(installed)["version"]?.stringValue == "1")

        let documents = try home.run(["container", "com.example.notes", "documents", "--device", "ci"])
        #expect(documents.status == 0)
        let path = documents.output.trimmingCharacters(in: .newlines)
        #expect(path.hasSuffix("/Documents") && !path.contains("\n"))
        try Data("kept".utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent("a.txt"))
        let app = try home.run(["container", "com.example.notes", "--device", "ci"])
        #expect(app.output.hasSuffix("/Notes.app\n"))

        let updated = try home.run(["update", try home.bundle(version: "2"), "--device", "ci"])
        #expect(updated.status == 0, "\(updated.standardError)")
        #expect(updated.output.hasPrefix("Updated com.example.notes"))
        let newDocuments = try home.run(["container", "com.example.notes", "documents", "--device", "ci"])
            .output.trimmingCharacters(in: .newlines)
        #expect(newDocuments != path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: newDocuments).appendingPathComponent("a.txt")) == Data("kept".utf8))

        // install of an installed app updates it, as simctl does.
        let reinstalled = try home.run(["install", try home.bundle(version: "3"), "--device", "ci"])
        #expect(reinstalled.output.hasPrefix("Updated com.example.notes  3"))
        let apps = try json(try home.run(["listapps", "--device", "ci", "--json"]))
        #expect(apps["apps"]?[0]?["version"]?.stringValue == "3")

        #expect(try home.run(["uninstall", "com.example.notes", "--device", "ci", "--keychain", "delete"]).status == 0)
        #expect(try home.run(["listapps", "--device", "ci"]).output.isEmpty)
    }

    @Test func purgeReportsWhatItFreed() throws {
        let home = try Home()
        let device = home.directory.url.appendingPathComponent("dev").path
        #expect(try home.run(["device", "create", "dev", "--path", device]).status == 0)
        #expect(try home.run(["install", try home.bundle(), "--device", device]).status == 0)
        let caches = try home.run(["container", "com.example.notes", "caches", "--device", device]).output
            .trimmingCharacters(in: .newlines)
        for index in 0..<10 {
            try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: caches).appendingPathComponent("\(index)"))
        }
        let report = try json(try home.run(["purge", "--device", device, "--json"]))
        #expect(report["apps"]?[0]?["files"]?.int64Value == 10)
        #expect(report["apps"]?[0]?["bundleID"]?.stringValue == "com.example.notes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caches).isEmpty)
        let text = try home.run(["purge", "--device", device])
        #expect(text.output.hasPrefix("Freed 0 B in 0 files from 1 app."))
    }

    @Test func migrateMovesDocumentsAndReportsIt() throws {
        let home = try Home()
        let device = home.directory.url.appendingPathComponent("dev").path
        #expect(try home.run(["device", "create", "dev", "--path", device]).status == 0)
        #expect(try home.run(["install", try home.bundle(), "--device", device]).status == 0)
        let documents = URL(fileURLWithPath: try home.run(["container", "com.example.notes", "documents", "--device", device]).output
            .trimmingCharacters(in: .newlines))
        try FileManager.default.createDirectory(at: documents.appendingPathComponent("maps"), withIntermediateDirectories: true)
        for index in 0..<10 { try Data(repeating: 1, count: 100).write(to: documents.appendingPathComponent("maps/\(index).tile")) }
        try FileManager.default.createSymbolicLink(atPath: documents.appendingPathComponent("hosts").path, withDestinationPath: "/etc/hosts")

        let report = try json(try home.run(["migrate", "com.example.notes", "--to", "support", "--device", device, "--json"]))
        #expect(report["moved"]?.int64Value == 12)
        #expect(report["totalBytes"]?.int64Value == 1000)
        #expect(report["destination"]?.stringValue == "support")
        #expect(try FileManager.default.contentsOfDirectory(atPath: documents.path).isEmpty)
        let support = documents.deletingLastPathComponent().appendingPathComponent("Library/Application Support")
        #expect(try FileManager.default.contentsOfDirectory(atPath: support.appendingPathComponent("maps").path).count == 10)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: support.appendingPathComponent("hosts").path) == "/etc/hosts")

        let status = try home.run(["migrate", "com.example.notes", "--status", "--device", device])
        #expect(status.output == "com.example.notes: no move pending\n")
        // A name taken at the destination is refused, nothing moves.
        try Data("a".utf8).write(to: documents.appendingPathComponent("hosts"))
        let conflict = try home.run(["migrate", "com.example.notes", "--to", "support", "--device", device])
        #expect(conflict.status == 1)
        #expect(conflict.errorLines.first?.contains("already holds an item of that name") == true)
        #expect(try home.run(["migrate", "com.example.notes", "--to", "nowhere", "--device", device]).status == 64)
    }

    @Test func theLaunchWatchdogLimitIsShownSetAndReset() throws {
        let home = try Home()
        #expect(try home.run(["device", "create", "default"]).status == 0)
        #expect(try home.run(["device", "watchdog"]).output == "launch watchdog: 20 s\n")
        #expect(try json(try home.run(["device", "watchdog", "0.5", "--json"]))["launchWatchdogLimit"]?.realValue == 0.5)
        #expect(try home.run(["device", "watchdog"]).output == "launch watchdog: 0.5 s\n")
        #expect(try home.run(["device", "watchdog", "default"]).output == "launch watchdog: 20 s\n")
        #expect(try home.run(["device", "watchdog", "-3"]).status == 64)
    }

    @Test func lockUnlockEraseAndBoot() throws {
        let home = try Home()
        #expect(try home.run(["device", "create", "default"]).status == 0)
        #expect(try home.run(["device", "lock"]).status == 0)
        #expect(try json(try home.run(["device", "info", "--json"]))["locked"]?.boolValue == true)
        #expect(try home.run(["device", "unlock"]).status == 0)
        #expect(try home.run(["install", try home.bundle()]).status == 0)
        let boot = try json(try home.run(["device", "boot", "--json"]))
        #expect(boot["apps"]?.arrayValue?.count == 1)
        #expect(try home.run(["device", "erase"]).status == 0)
        #expect(try home.run(["listapps"]).output.isEmpty)
    }

    @Test func errorsAreOneLineWithStatusOneAndUsageErrorsAreSixtyFour() throws {
        let home = try Home()
        let missing = try home.run(["listapps", "--device", "nowhere"])
        #expect(missing.status == 1)
        #expect(missing.errorLines.count == 1)
        #expect(missing.errorLines.first?.hasPrefix("Error: no device 'nowhere'") == true)
        #expect(try home.run(["device", "create", "default"]).status == 0)
        let notInstalled = try home.run(["container", "com.example.none"])
        #expect(notInstalled.status == 1)
        #expect(notInstalled.errorLines == ["Error: com.example.none is not installed"])
        let badBundle = try home.run(["install", "nothing.app"])
        #expect(badBundle.status == 1)
        #expect(badBundle.errorLines.count == 1)
        #expect(try home.run(["container", "com.example.notes", "bogus"]).status == 64)
        #expect(try home.run(["install"]).status == 64)
        #expect(try home.run(["uninstall", "x", "--keychain", "shred"]).status == 64)
        #expect(try home.run(["device", "create", "a/b"]).status == 64)
    }
}
