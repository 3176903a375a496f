import Foundation
import Launch
import TestSupport
import Testing

/// A launched app never keeps privileges: as root the launch drops to the
/// app user (501) with no capability, so the metadata calls Landlock does
/// not govern (chmod, chown, utimes, setxattr) fail outside the container.
@Suite struct PrivilegeDropTests {
    static let noCapabilities = "0000000000000000"

    @Test("a confined app runs unprivileged and changes no metadata outside",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func confinedMetadata() throws {
        let device = try ProbeDevice()
        let before = try FileManager.default.attributesOfItem(atPath: device.protected.path)
        // Only a file the app's user does not own can be protected: as
        // another user the test's own file would be the app's too.
        let arguments = LibC.isRoot ? ["--protected", device.protected.path] : []
        let (report, confinement) = try device.runProbe(.required, extraArguments: arguments)
        #expect(confinement.confined)
        try Self.expectUnprivileged(report)
        let metadata = report.attempts.filter { $0.name.hasSuffix("-protected") && $0.outcome != "skipped" }
        if LibC.isRoot { #expect(metadata.count >= 4, "only \(metadata.count) metadata attacks were tried") }
        for attempt in metadata {
            #expect(attempt.outcome == "denied", "changed metadata outside: \(attempt.name) (\(attempt.detail))")
            #expect(LibC.denials.contains(attempt.errno), "\(attempt.name): \(attempt.detail)")
        }
        let after = try FileManager.default.attributesOfItem(atPath: device.protected.path)
        for key in [FileAttributeKey.posixPermissions, .ownerAccountID, .groupOwnerAccountID, .modificationDate] {
            #expect(String(describing: before[key]) == String(describing: after[key]), "\(key.rawValue) changed")
        }
    }

    @Test("unconfined too, the app runs unprivileged")
    func unconfinedUnprivileged() throws {
        let device = try ProbeDevice()
        let arguments = LibC.isRoot ? ["--protected", device.protected.path] : []
        let (report, _) = try device.runProbe(.disabled, extraArguments: arguments)
        try Self.expectUnprivileged(report)
        for attempt in report.attempts where attempt.name.hasSuffix("-protected") && attempt.outcome != "skipped" {
            #expect(attempt.outcome == "denied", "changed metadata outside: \(attempt.name) (\(attempt.detail))")
        }
    }

    @Test("the app's data directories are handed to its user", .enabled(if: LibC.isRoot, "the tests do not run as root"))
    func dataDirectoriesOwned() throws {
        let device = try ProbeDevice()
        let nested = device.container.appendingPathComponent("Library/Caches/nested.txt")
        try Data("cached".utf8).write(to: nested)
        _ = try device.runProbe(.disabled)
        for path in ["Documents", "Library", "Library/Caches/nested.txt", "tmp"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: device.container.appendingPathComponent(path).path)
            #expect((attributes[.ownerAccountID] as? NSNumber)?.uint32Value == AppUser.mobile.uid, "\(path)")
        }
        // Nothing outside the data directories changes owner.
        let root = try FileManager.default.attributesOfItem(atPath: device.container.path)
        #expect((root[.ownerAccountID] as? NSNumber)?.uint32Value == 0)
        let protected = try FileManager.default.attributesOfItem(atPath: device.protected.path)
        #expect((protected[.ownerAccountID] as? NSNumber)?.uint32Value == 0)
    }

    @Test("a data directory that is a symbolic link is refused, and its target untouched",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func linkedDataDirectory() throws {
        let device = try ProbeDevice()
        let documents = device.container.appendingPathComponent("Documents")
        try FileManager.default.removeItem(at: documents)
        try FileManager.default.createSymbolicLink(at: documents, withDestinationURL: device.outside)
        let error = #expect(throws: LaunchError.self) { try device.launch(.required).start() }
        #expect(error?.code == .linkRefused)
        if LibC.isRoot {
            let outside = try FileManager.default.attributesOfItem(atPath: device.outside.path)
            #expect((outside[.ownerAccountID] as? NSNumber)?.uint32Value == 0, "the link's target was handed over")
        }
    }

    /// The probe's ids are the app user's (when the test runs as root) and
    /// it holds no capability, with `no_new_privs` set.
    static func expectUnprivileged(_ report: ProbeReport) throws {
        if LibC.isRoot {
            #expect(report.uid == AppUser.mobile.uid)
            #expect(report.euid == AppUser.mobile.uid)
            #expect(report.gid == AppUser.mobile.gid)
            #expect(report.egid == AppUser.mobile.gid)
        }
        for set in ["CapEff", "CapPrm", "CapInh", "CapAmb"] {
            #expect(report.privileges[set] == noCapabilities, "\(set) is \(report.privileges[set] ?? "missing")")
        }
        #expect(report.privileges["NoNewPrivs"] == "1")
    }
}
