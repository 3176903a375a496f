@testable import Device
import Foundation
import Launch
import PropertyList
import Testing

/// The escape probe installed as a real app and launched by the device:
/// the whole path `sandbox launch` takes (install, seal check, container
/// environment, confinement, run record).
@Suite struct DeviceEscapeProbeTests {
    @Test("an installed app launched by the device escapes nowhere",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func probe() throws {
        let fixture = try DeviceFixture("launch-probe")
        let probe = try #require(Helper.locate("escape-probe"), "escape-probe was not built")
        let folder = fixture.bundles.appendingPathComponent("probe")
        let bundle = try TestBundle.make(in: folder, name: "Probe", identifier: "com.example.probe", executable: "Probe")
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("Probe"))
        try FileManager.default.copyItem(at: probe, to: bundle.appendingPathComponent("Probe"))
        let app = try fixture.device.install(bundleAt: bundle)
        let other = try fixture.install(identifier: "com.example.other")
        try Data("other app's secret".utf8).write(to: other.dataContainerURL.appendingPathComponent("Documents/secret.txt"))
        let outside = fixture.temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        try Data("victim".utf8).write(to: outside.appendingPathComponent("victim.txt"))

        let pipe = Pipe()
        var options = ProcessLaunchOptions()
        options.confinement = .required
        options.standardOutput = .fileHandle(pipe.fileHandleForWriting)
        let run = try fixture.device.launch(app.bundleID, arguments: ["--outside", outside.path, "--other", other.dataContainerURL.path],
                                            options: options)
        try pipe.fileHandleForWriting.close()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(try run.process.wait() == .exited(0))
        #expect(run.confined)

        let attempts = try PropertyListValue.decode(output, as: .json)["attempts"]?.arrayValue ?? []
        let tried = attempts.filter { $0["outcome"]?.stringValue != "skipped" }
        let escapes = tried.filter { $0["expect"]?.stringValue == "denied" }
        #expect(escapes.count >= 15)
        for attempt in tried {
            let name = attempt["name"]?.stringValue ?? "?"
            let minimum = attempt["minimumABI"]?.int64Value ?? 1
            guard minimum <= Int64(run.process.confinement.abi) else { continue }
            #expect(attempt["outcome"] == attempt["expect"], "\(name): \(attempt["detail"]?.stringValue ?? "")")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted() == ["secret.txt", "victim.txt"])
        #expect(try app.bundle.verifySeal() == .valid)
    }
}
