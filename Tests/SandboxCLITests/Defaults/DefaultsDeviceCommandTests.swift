import Foundation
import PropertyList
import Testing

/// `sandbox defaults --device`: domains named by the bundle id of an app
/// installed on a device.
@Suite struct DefaultsDeviceCommandTests {
    @Test func aDeviceAppsDomainIsReadAndWrittenInItsDataContainer() throws {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "ci"]).status == 0)
        let installed = try home.run(["install", try home.bundle(), "--device", "ci", "--json"])
        #expect(installed.status == 0, "\(installed.standardError)")
        let container = try #require(try PropertyListValue.decode(installed.standardOutput, as: .json)["dataContainer"]?.stringValue)

        let write = try home.run(["defaults", "write", "--device", "ci", "com.example.notes", "Theme", "-string", "dark"])
        #expect(write.status == 0, "\(write.standardError)")
        let file = URL(fileURLWithPath: container).appendingPathComponent("Library/Preferences/com.example.notes.plist")
        #expect(try PropertyListValue(data: Data(contentsOf: file)) == ["Theme": "dark"])
        #expect(try home.run(["defaults", "read", "--device", "ci", "com.example.notes", "Theme"]).output == "dark\n")
        #expect(try home.run(["defaults", "domains", "--device", "ci"]).output == "com.example.notes\n")
        let missing = try home.run(["defaults", "read", "--device", "ci", "com.example.absent"])
        #expect(missing.status == 1)
        #expect(try home.run(["defaults", "read", "--device", "ci", "--container", "x", "com.example.notes"]).status == 64)
    }
}
