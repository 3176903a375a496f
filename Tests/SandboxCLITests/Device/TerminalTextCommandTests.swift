import Foundation
import PropertyList
import TestSupport
import Testing

/// Names an app chose reach the terminal made visible, never acting on it:
/// file names in the audit's text (an escape sequence that sets the title
/// or clears the screen, a newline that forges a finding line, U+202E),
/// and the display name `install` prints.
@Suite struct TerminalTextCommandTests {
    /// Controls a terminal acts on: C0 but the newline and the tab (which
    /// lay an output out), DEL, C1, and the bidi marks.
    static func rawControls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A, 0x09: return false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
            default: return false
            }
        }
    }

    static let hostileNames = [
        "title\u{1B}]0;owned\u{07}.bin",
        "clear\u{1B}[2J\u{1B}[H.bin",
        "x (1 B): fine\n  A2 forged.bin (1 B): forged.bin",
        "evil\u{202E}nib.exe",
    ]

    @Test func theAuditTextShowsOneLinePerFindingAndNoRawControl() throws {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "dev"]).status == 0)
        #expect(try home.run(["install", try home.bundle(), "--device", "dev"]).status == 0)
        let data = try home.run(["container", "com.example.notes", "data", "--device", "dev"]).output
            .trimmingCharacters(in: .newlines)
        // One folder each, so that each is its own finding.
        for (index, name) in Self.hostileNames.enumerated() {
            let folder = URL(fileURLWithPath: data + "/Library/Caches/f\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        let audit = try home.run(["audit", "--device", "dev"])
        #expect(audit.status == 0, "\(audit.standardError)")
        #expect(Self.rawControls(in: audit.output).isEmpty, "\(audit.output.debugDescription)")
        let findingLines = audit.output.split(separator: "\n").filter { $0.hasPrefix("  A2 ") }
        #expect(findingLines.count == Self.hostileNames.count, "\(findingLines)")
        #expect(!audit.output.contains("\n  A2 forged.bin"))
        #expect(audit.output.contains("title\u{241B}]0;owned\u{2407}.bin"))
        #expect(audit.output.contains("evil<U+202E>nib.exe"))
        // JSON keeps the names as they are (its own escaping makes them safe).
        let json = try PropertyListValue.decode(try home.run(["audit", "--device", "dev", "--json"]).standardOutput, as: .json)
        let paths = json["apps"]?[0]?["findings"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
        #expect(paths.contains("Library/Caches/f3/evil\u{202E}nib.exe"))
    }

    @Test func installShowsTheDisplayNameEscaped() throws {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "dev"]).status == 0)
        let folder = try home.bundle()
        let info: PropertyListValue = ["CFBundleIdentifier": .string("com.example.notes"), "CFBundleVersion": .string("1"),
                                       "CFBundleExecutable": .string("Notes"),
                                       "CFBundleDisplayName": .string("Notes\u{1B}[2J\nInstalled com.evil\u{202E}")]
        _ = try home.directory.write(try info.encoded(as: .binary), to: "\(folder)/Info.plist")
        let installed = try home.run(["install", folder, "--device", "dev"])
        #expect(installed.status == 0, "\(installed.standardError)")
        #expect(Self.rawControls(in: installed.output).isEmpty, "\(installed.output.debugDescription)")
        #expect(installed.output.split(separator: "\n").count == 1)
        #expect(installed.output.contains("Notes\u{241B}[2J\u{240A}Installed com.evil<U+202E>"))
        let listed = try home.run(["listapps", "--device", "dev"])
        #expect(Self.rawControls(in: listed.output).isEmpty)
        #expect(listed.output.split(separator: "\n").count == 1)
    }

    /// Every text output passes through one escaper on its way out
    /// (`TerminalText.escapeLines`): a preference string the app wrote and
    /// the device name a backup's Info.plist gives reach the terminal
    /// visible, never acting on it.
    @Test func defaultsAndBackupTextShowNoRawControl() throws {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "dev"]).status == 0)
        #expect(try home.run(["install", try home.bundle(), "--device", "dev"]).status == 0)
        let hostile = "dark\u{1B}]0;owned\u{07}\u{202E}"
        let written = try home.run(["defaults", "write", "--device", "dev", "com.example.notes", "Theme", "-string", hostile])
        #expect(written.status == 0, "\(written.standardError)")
        let read = try home.run(["defaults", "read", "--device", "dev", "com.example.notes", "Theme"])
        #expect(read.output == "dark\u{241B}]0;owned\u{2407}<U+202E>\n", "\(read.output.debugDescription)")
        let domain = try home.run(["defaults", "read", "--device", "dev", "com.example.notes"])
        #expect(Self.rawControls(in: domain.output).isEmpty, "\(domain.output.debugDescription)")

        let created = try home.run(["backup", "create", "--device", "dev", "--json"])
        #expect(created.status == 0, "\(created.standardError)")
        let path = try #require(try PropertyListValue.decode(created.standardOutput, as: .json)["path"]?.stringValue)
        // The name a reader shows is the manifest's Lockdown DeviceName.
        let manifestURL = URL(fileURLWithPath: path).appendingPathComponent("Manifest.plist")
        guard case .dictionary(var manifest) = try PropertyListValue(data: Data(contentsOf: manifestURL)),
              case .dictionary(var lockdown)? = manifest["Lockdown"] else {
            Issue.record("the backup's Manifest.plist has no Lockdown dictionary")
            return
        }
        lockdown["DeviceName"] = .string("phone\u{1B}[2J\u{1B}[H\u{9B}31m")
        manifest["Lockdown"] = .dictionary(lockdown)
        try PropertyListValue.dictionary(manifest).encoded(as: .binary).write(to: manifestURL)
        let shown = try home.run(["backup", "info", path])
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(Self.rawControls(in: shown.output).isEmpty, "\(shown.output.debugDescription)")
        #expect(shown.output.contains("phone\u{241B}[2J\u{241B}[H<U+009B>31m"), "\(shown.output)")
    }
}
