import Foundation
import PropertyList
import Testing

/// `sandbox launch` and `sandbox terminate`, run as the built executable.
@Suite struct LaunchCommandTests {
    /// A device "ci" with com.example.notes installed, its executable `script`.
    private func install(script: String) throws -> DeviceCommandTests.Home {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "ci"]).status == 0)
        let bundle = try home.bundle()
        let executable = home.directory.url.appendingPathComponent("\(bundle)/Notes")
        try Data("#!/bin/sh\n\(script)\n".utf8).write(to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        let installed = try home.run(["install", bundle, "--device", "ci"])
        #expect(installed.status == 0, "\(installed.standardError)")
        return home
    }

    @Test("launch --wait prints '<bundle id>: <pid>' and exits with the app's status")
    func launchWait() throws {
        let home = try install(script: "echo \"$1 $HOME\"; exit 3")
        let result = try home.run(["launch", "--wait", "--device", "ci", "com.example.notes", "hello"])
        #expect(result.status == 3, "\(result.standardError)")
        // The app shares standard output and may print before the pid line.
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let pidLine = lines.first { $0.hasPrefix("com.example.notes: ") }
        #expect(pidLine.flatMap { $0.split(separator: " ").last }.flatMap { Int32($0) } != nil)
        let data = try home.run(["container", "com.example.notes", "data", "--device", "ci"]).output
            .trimmingCharacters(in: .newlines)
        #expect(lines.contains("hello \(data)"))
        let json = try home.run(["launch", "--wait", "--json", "--device", "ci", "com.example.notes"])
        // With --wait the JSON comes after everything the app printed.
        let start = try #require(json.output.range(of: "{")?.lowerBound)
        let summary = try PropertyListValue.decode(Data(json.output[start...].utf8), as: .json)
        #expect(summary["exitStatus"]?.int64Value == 3)
        #expect(summary["bundleID"]?.stringValue == "com.example.notes")
    }

    @Test("launch returns at once; terminate ends the app; a second terminate finds nothing")
    func launchTerminate() throws {
        let home = try install(script: "exec >/dev/null 2>&1\ntrap 'exit 0' TERM\nwhile :; do sleep 0.05; done")
        let launched = try home.run(["launch", "--device", "ci", "com.example.notes"])
        #expect(launched.status == 0, "\(launched.standardError)")
        #expect(launched.output.hasPrefix("com.example.notes: "))
        let again = try home.run(["launch", "--device", "ci", "com.example.notes"])
        #expect(again.status == 1)
        #expect(again.errorLines.count == 1 && again.standardError.contains("already running"))
        let terminated = try home.run(["terminate", "--device", "ci", "com.example.notes"])
        #expect(terminated.status == 0, "\(terminated.standardError)")
        let nothing = try home.run(["terminate", "--device", "ci", "com.example.notes"])
        #expect(nothing.status == 1)
        #expect(nothing.errorLines.count == 1)
    }

    @Test("launch --watchdog kills an app that does not finish launching in time, and says so")
    func launchWatchdog() throws {
        let home = try install(script: "exec >/dev/null 2>&1\nsleep 30")
        let killed = try home.run(["launch", "--watchdog", "0.5", "--device", "ci", "com.example.notes"])
        #expect(killed.status == 1)
        #expect(killed.errorLines.count == 1)
        #expect(killed.standardError.contains("watchdog timeout (0x8badf00d)"), "\(killed.standardError)")
        #expect(try home.run(["launch", "--watchdog", "soon", "--device", "ci", "com.example.notes"]).status == 64)
    }

    @Test("an unknown app or confinement mode is one error line")
    func errors() throws {
        let home = try install(script: "exit 0")
        let missing = try home.run(["launch", "--device", "ci", "com.example.none"])
        #expect(missing.status == 1)
        #expect(missing.errorLines.count == 1)
        let usage = try home.run(["launch", "--confinement", "sometimes", "--device", "ci", "com.example.notes"])
        #expect(usage.status == 64)
    }
}
