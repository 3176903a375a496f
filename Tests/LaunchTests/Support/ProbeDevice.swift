import Foundation
import Launch
import TestSupport
import Testing

/// A device-shaped tree for the escape probe: its bundle (with a copy of the
/// probe inside, as an installed app's executable), its data container,
/// another app's container holding a secret, and a writable directory
/// outside every container.
struct ProbeDevice {
    let directory: TemporaryDirectory
    let bundle: URL
    let container: URL
    let other: URL
    let outside: URL
    let executable: URL
    /// A root-owned (the test's user's) file outside every container, for
    /// the metadata attacks (`--protected`).
    let protected: URL

    init() throws {
        directory = try TemporaryDirectory("launch")
        let root = directory.url
        let manager = FileManager.default
        let application = root.appendingPathComponent("Containers/Bundle/Application/\(UUID().uuidString)")
        bundle = application.appendingPathComponent("Probe.app")
        let data = root.appendingPathComponent("Containers/Data/Application")
        container = data.appendingPathComponent(UUID().uuidString)
        other = data.appendingPathComponent(UUID().uuidString)
        outside = root.appendingPathComponent("outside")
        executable = bundle.appendingPathComponent("escape-probe")
        protected = root.appendingPathComponent("protected/owned-by-the-launcher.txt")

        for folder in ["Documents", "Library/Caches", "Library/Preferences", "Library/Application Support", "tmp"] {
            try manager.createDirectory(at: container.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try manager.createDirectory(at: other.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        try Data("other app's secret".utf8).write(to: other.appendingPathComponent("Documents/secret.txt"))
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("outside secret".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        try Data("outside victim".utf8).write(to: outside.appendingPathComponent("victim.txt"))
        try manager.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("<plist version=\"1.0\"><dict/></plist>\n".utf8).write(to: bundle.appendingPathComponent("Info.plist"))
        // A copy, not a link: a link would point the kernel at the build
        // directory, which the confinement does not let the app execute.
        let probe = try #require(BuiltProgram.escapeProbe, "escape-probe was not built")
        try manager.copyItem(at: probe, to: executable)
        try manager.createDirectory(at: protected.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("the launcher's file".utf8).write(to: protected)
        try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: protected.path)
        // The app runs as an unprivileged user when the tests run as root:
        // the places the test made for the unconfined escapes are opened
        // to every user, so ordinary permissions allow them and only the
        // kernel's confinement stops them.
        for directory in [outside, other.appendingPathComponent("Documents"), data, bundle, container] {
            try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        }
        for file in [outside.appendingPathComponent("secret.txt"), outside.appendingPathComponent("victim.txt")] {
            try manager.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file.path)
        }
    }

    /// The probe's launch, as `sandbox launch` would describe it.
    func launch(_ mode: ConfinementMode, extraArguments: [String] = []) throws -> ConfinedLaunch {
        var launch = ConfinedLaunch.app(executable: executable, bundle: bundle, container: container,
                                        arguments: ["--outside", outside.path, "--other", other.path] + extraArguments)
        launch.mode = mode
        let trampoline = try #require(BuiltProgram.trampoline, "sandbox-confine was not built")
        launch.trampoline = trampoline
        launch.printsWarnings = false
        return launch
    }

    /// Runs the probe and decodes its report.
    func runProbe(_ mode: ConfinementMode, extraArguments: [String] = []) throws -> (report: ProbeReport, confinement: Confinement) {
        var launch = try launch(mode, extraArguments: extraArguments)
        let pipe = Pipe()
        launch.standardOutput = .fileHandle(pipe.fileHandleForWriting)
        let process = try launch.start()
        try pipe.fileHandleForWriting.close()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        let status = try process.wait()
        #expect(status == .exited(0), "escape-probe ended with \(status)")
        let report = try JSONDecoder().decode(ProbeReport.self, from: output)
        return (report, process.confinement)
    }
}

/// The probe's JSON report.
struct ProbeReport: Decodable {
    struct Attempt: Decodable {
        var name: String
        var expect: String
        var outcome: String
        var errno: Int32
        var detail: String
        var minimumABI: Int
    }

    var pid: Int32
    var uid: UInt32
    var euid: UInt32
    var gid: UInt32
    var egid: UInt32
    /// `CapEff`, `CapPrm`, … and `NoNewPrivs` from the probe's /proc/self/status.
    var privileges: [String: String]
    var container: String
    var bundle: String
    var attempts: [Attempt]

    var escapes: [Attempt] { attempts.filter { $0.expect == "denied" && $0.outcome != "skipped" } }
    var allowed: [Attempt] { attempts.filter { $0.expect == "allowed" && $0.outcome != "skipped" } }
}
