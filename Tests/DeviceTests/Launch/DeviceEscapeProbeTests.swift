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
        let probe = try ProbeApp(fixture)
        let (app, outside) = (probe.app, probe.outside)

        let pipe = Pipe()
        var options = ProcessLaunchOptions()
        options.confinement = .required
        options.standardOutput = .fileHandle(pipe.fileHandleForWriting)
        let run = try fixture.device.launch(app.bundleID, arguments: probe.arguments,
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
