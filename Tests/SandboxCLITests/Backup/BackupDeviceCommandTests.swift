import Foundation
import PropertyList
import Testing

/// `sandbox backup create` and `restore` with devices made by `sandbox
/// device`, under a scratch SANDBOX_HOME.
@Suite struct BackupDeviceCommandTests {
    private func json(_ result: SandboxProcess.Result) throws -> PropertyListValue {
        try PropertyListValue.decode(result.standardOutput, as: .json)
    }

    /// Adds a keychain item to `device`'s store as Notes, through `sandbox keychain`.
    private func addItem(_ home: DeviceCommandTests.Home, device: String, service: String, accessibility: String) throws {
        let root = "home/devices/\(device)"
        let added = try home.run(["keychain", "add", "--store", "\(root)/Keychains", "--device-secret-file", "\(root)/Secrets/device-secret",
                                  "--app", "SANDBOXTM0.com.example.notes", "--service", service, "--account", "ann",
                                  "--accessibility", accessibility, "--data", "secret-\(service)"])
        #expect(added.status == 0, "\(added.standardError)")
    }

    private func services(_ home: DeviceCommandTests.Home, device: String) throws -> [String] {
        let root = "home/devices/\(device)"
        let list = try home.run(["keychain", "list", "--store", "\(root)/Keychains", "--device-secret-file", "\(root)/Secrets/device-secret",
                                 "--app", "SANDBOXTM0.com.example.notes", "--json"])
        return try json(list)["items"]?.arrayValue?.compactMap { $0["service"]?.stringValue }.sorted() ?? []
    }

    @Test func createThenRestoreOntoASecondDevice() throws {
        let home = try DeviceCommandTests.Home()
        for name in ["phone", "other"] {
            #expect(try home.run(["device", "create", name]).status == 0)
            #expect(try home.run(["install", try home.bundle(), "--device", name]).status == 0)
        }
        let documents = URL(fileURLWithPath: try home.run(["container", "com.example.notes", "data", "--device", "phone"])
            .output.trimmingCharacters(in: .newlines))
        try Data("note".utf8).write(to: documents.appendingPathComponent("Documents/note.txt"))
        try Data("cache".utf8).write(to: documents.appendingPathComponent("Library/Caches/c.bin"))
        try addItem(home, device: "phone", service: "sync", accessibility: "afterFirstUnlock")
        try addItem(home, device: "phone", service: "bound", accessibility: "whenUnlockedThisDeviceOnly")

        let created = try home.run(["backup", "create", "--device", "phone", "--password", "pw", "--json"])
        #expect(created.status == 0, "\(created.standardError)")
        let summary = try json(created)
        #expect(summary["encrypted"]?.boolValue == true)
        let path = try #require(summary["path"]?.stringValue)
        #expect(path.contains("/home/backups/"))
        let list = try home.run(["backup", "list"])
        #expect(list.output.contains("encrypted"))

        let restored = try home.run(["backup", "restore", path, "--to-device", "other", "--password", "pw", "--json"])
        #expect(restored.status == 0, "\(restored.standardError)")
        let report = try json(restored)
        #expect(report["clean"]?.boolValue == true)
        #expect(report["keychain"]?.stringValue?.hasPrefix("restored 1 items") == true)
        let target = URL(fileURLWithPath: try home.run(["container", "com.example.notes", "data", "--device", "other"])
            .output.trimmingCharacters(in: .newlines))
        #expect(try Data(contentsOf: target.appendingPathComponent("Documents/note.txt")) == Data("note".utf8))
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("Library/Caches/c.bin").path))
        // The ThisDeviceOnly item stayed on the phone.
        #expect(try services(home, device: "other") == ["sync"])
        #expect(try services(home, device: "phone") == ["bound", "sync"])

        // Without --to-device, the restore goes to the device the backup came from.
        let back = try home.run(["backup", "restore", path, "--password", "pw"])
        #expect(back.status == 0, "\(back.standardError)")
        #expect(back.output.contains("onto phone"))
    }
}
