@testable import Device
import Foundation
import MobileBackup
import Testing
import TestSupport

/// A backup's paths are UTF-8 text, and iOS makes no other names; a file
/// named with other bytes on this disk is left out by name, never in
/// silence, and the rest of the backup is whole.
@Suite struct BackupNameTests {
    @Test func aNameThatIsNotUTF8IsLeftOutAndReported() throws {
        let fixture = try DeviceFixture("backup-names")
        let app = try fixture.install(identifier: "com.example.names")
        let container = try app.dataContainer()
        try container.writeAtomically(Data("kept".utf8), to: "Documents/kept.txt")
        let made = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                        ["-c", "printf 'x' > \"$(printf 'Documents/bad\\377.txt')\" && mkdir \"$(printf 'Documents/dir\\376')\""
                                            + " && printf 'y' > \"$(printf 'Documents/dir\\376/in.txt')\""],
                                        in: container.root)
        try #require(made.status == 0, "\(made.standardError)")
        let summary = try fixture.device.backUp(to: fixture.temp.url.appendingPathComponent("backups"))
        let skipped = summary.skippedFiles.filter { $0.reason == .nameNotUTF8 }.map(\.relativePath).sorted()
        #expect(skipped == ["Documents/bad\u{FFFD}.txt", "Documents/dir\u{FFFD}"], "\(summary.skippedFiles)")
    }
}
