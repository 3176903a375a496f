import Device
import FileSystem
import Foundation
import Launch

extension DemoScript {
    /// Launches the app's executable as a real process, confined by the
    /// kernel where it has Landlock, and reads back which writes it was
    /// allowed.
    mutating func launchProbe(on device: Device, installed: InstalledApp) throws {
        var options = ProcessLaunchOptions()
        options.standardOutput = .nullDevice
        options.printsWarnings = false
        let process = try device.launch(PossessionsApp.bundleID, wait: true, options: options)
        narrator.say("launched \(PossessionsApp.bundleID) as process \(process.pid)"
                     + (process.confined ? ", confined by Landlock" : " UNCONFINED (this kernel has no Landlock)"))
        let container = try installed.dataContainer()
        let report = String(decoding: try container.read(PossessionsApp.probeReportPath), as: UTF8.self)
        let lines = report.split(separator: "\n").map(String.init)
        lines.forEach { narrator.say("the process's " + $0) }
        if process.confined {
            try narrator.check(!lines.isEmpty && lines.allSatisfy { $0.hasSuffix(": denied") },
                               "the kernel denied every write outside Documents, Library and tmp")
        } else {
            narrator.say("(without Landlock only the container API's checks apply; the kernel did not stop the process)")
        }
        // Whatever the process managed to write unconfined is removed, so later steps see a clean device.
        for leftover in [installed.dataContainerURL.deletingLastPathComponent().appendingPathComponent("escaped.txt"),
                         installed.dataContainerURL.appendingPathComponent("escaped.txt"),
                         installed.bundleContainer.appendingPathComponent("tampered.txt")] {
            try FileSystemPaths.removeTree(atPath: leftover.path)
        }
    }
}

extension AppRun {
    /// The running app's context, or a ``DemoError`` if the app is not running.
    func requireContext() throws -> AppContext {
        guard let context else { throw DemoError(step: 0, claim: "\(bundleID) is running") }
        return context
    }
}
