import Foundation
import Launch
import Testing

/// The escape probe, a real app process, against the kernel confinement.
@Suite struct EscapeProbeTests {
    @Test("a confined app escapes nowhere and still writes where it may",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func confinedProbe() throws {
        let device = try ProbeDevice()
        let (report, confinement) = try device.runProbe(.required)
        #expect(confinement.confined)
        #expect(confinement.abi == Landlock.abiVersion)
        let enforceable = report.escapes.filter { $0.minimumABI <= confinement.abi }
        #expect(enforceable.count >= 15, "only \(enforceable.count) escapes were tried")
        for attempt in enforceable {
            #expect(attempt.outcome == "denied", "escaped: \(attempt.name) (\(attempt.detail))")
            #expect(LibC.denials.contains(attempt.errno), "\(attempt.name) failed, but not by a denial: \(attempt.detail)")
        }
        for attempt in report.allowed where attempt.minimumABI <= confinement.abi {
            #expect(attempt.outcome == "allowed", "refused inside the sandbox: \(attempt.name) (\(attempt.detail))")
        }
        // Nothing reached the outside directory or the other container.
        let outside = try FileManager.default.contentsOfDirectory(atPath: device.outside.path).sorted()
        #expect(outside == ["secret.txt", "victim.txt"])
        let other = try FileManager.default.contentsOfDirectory(atPath: device.other.appendingPathComponent("Documents").path)
        #expect(other == ["secret.txt"])
    }

    @Test("unconfined, the same attempts get through: the probe's escapes are real")
    func unconfinedProbe() throws {
        let device = try ProbeDevice()
        let (report, confinement) = try device.runProbe(.disabled)
        #expect(!confinement.confined)
        #expect(confinement.warning?.contains("UNCONFINED") == true)
        // The escapes into places the test made (so ordinary permissions
        // allow them for any user) succeed without the kernel's help.
        let made = ["write-home-parent", "write-outside", "write-bundle", "write-container-root",
                    "read-other-container", "write-other-container", "read-outside", "hardlink-out",
                    "rename-out", "mkdir-outside", "truncate-outside", "remove-outside", "execute-written-file"]
        for name in made {
            let attempt = try #require(report.attempts.first { $0.name == name }, "no attempt \(name)")
            #expect(attempt.outcome == "allowed", "\(name) failed even unconfined: \(attempt.detail)")
        }
        for attempt in report.allowed {
            #expect(attempt.outcome == "allowed", "\(attempt.name) failed: \(attempt.detail)")
        }
    }

    @Test("without Landlock a launch warns and runs unconfined",
          .enabled(if: !Landlock.isAvailable, "the kernel has Landlock"))
    func automaticWithoutLandlock() throws {
        let device = try ProbeDevice()
        let (report, confinement) = try device.runProbe(.automatic)
        #expect(!confinement.confined)
        #expect(confinement.abi == 0)
        #expect(confinement.warning?.contains("UNCONFINED") == true)
        #expect(!report.attempts.isEmpty)
    }

    @Test("without Landlock a required confinement refuses to launch",
          .enabled(if: !Landlock.isAvailable, "the kernel has Landlock"))
    func requiredWithoutLandlock() throws {
        let device = try ProbeDevice()
        let error = #expect(throws: LaunchError.self) { try device.launch(.required).start() }
        #expect(error?.code == .landlockUnavailable)
    }
}
