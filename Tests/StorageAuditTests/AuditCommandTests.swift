import Device
import FileSystem
import Foundation
import PropertyList
import StorageAudit
import TestSupport
import Testing

/// `sandbox audit` on a device, run as the built executable.
@Suite struct AuditCommandTests {
    struct Home {
        let temp: TemporaryDirectory
        let device: Device

        init() throws {
            temp = try TemporaryDirectory("audit-cli")
            device = try Device.create(at: temp.url.appendingPathComponent("device"), name: "audit")
        }

        var devicePath: String { device.root.standardizedFileURL.path }

        /// Installs an app whose container holds a little of everything.
        func install(_ identifier: String, documents: Int) throws {
            let folder = temp.url.appendingPathComponent("\(identifier)/App.app")
            try FileSystemWrite.file(folder.appendingPathComponent("Info.plist"), try AuditFixture.infoPlist(identifier, executable: "App"))
            try FileSystemWrite.file(folder.appendingPathComponent("App"), Data("#!/bin/sh\n".utf8))
            let app = try device.install(bundleAt: folder)
            let container = try app.dataContainer()
            try container.writeAtomically(Data(repeating: 3, count: documents), to: "Documents/data.bin")
            try container.createDirectory("Library/Caches/img")
            try container.writeAtomically(Data(repeating: 4, count: 2_000), to: "Library/Caches/img/a.png")
            try container.writeAtomically(Data(repeating: 5, count: 100), to: "tmp/t")
        }

        func run(_ arguments: [String]) throws -> ChildProcess.Result {
            let executable = try #require(BuiltExecutable.locate("sandbox"), "the sandbox executable was not built")
            return try ChildProcess.run(executable, ["audit", "--device", devicePath] + arguments, in: temp.url)
        }
    }

    @Test func jsonIsByteIdenticalAcrossRunsAndSortedBySize() throws {
        let home = try Home()
        try home.install("com.example.small", documents: 1_000)
        try home.install("com.example.large", documents: 300_000)
        let first = try home.run(["--json"])
        #expect(first.status == 0, "\(first.standardError)")
        let second = try home.run(["--json"])
        #expect(first.standardOutput == second.standardOutput)
        let value = try PropertyListValue.decode(first.standardOutput, as: .json)
        #expect(value["apps"]?.arrayValue?.compactMap { $0["bundleID"]?.stringValue } == ["com.example.large", "com.example.small"])
        #expect(value["iCloud"]?["quotaBytes"]?.int64Value == 5_000_000_000)
        let findings = value["apps"]?.arrayValue?.first?["findings"]?.arrayValue ?? []
        #expect(findings.compactMap { $0["rule"]?.stringValue } == ["A2"])

        let one = try home.run(["com.example.small", "--json"])
        #expect(try PropertyListValue.decode(one.standardOutput, as: .json)["apps"]?.arrayValue?.count == 1)
        let missing = try home.run(["com.example.none"])
        #expect(missing.status != 0)
        #expect(missing.standardError.contains("not installed"))
    }

    @Test func textHasBarsAndNoColourOffATerminal() throws {
        let home = try Home()
        try home.install("com.example.small", documents: 1_000)
        let result = try home.run([])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.contains("com.example.small"))
        #expect(result.output.contains("["))
        #expect(result.output.contains("iCloud backup"))
        #expect(!result.output.contains("\u{1B}["))
        let help = try ChildProcess.run(try #require(BuiltExecutable.locate("sandbox")), ["audit", "--help"])
        #expect(help.output.contains("Examples:"))
    }
}

/// Writing fixture files through FileSystem, making their folders.
enum FileSystemWrite {
    static func file(_ url: URL, _ data: Data) throws {
        try FileSystemPaths.makeDirectories(atPath: url.deletingLastPathComponent().path)
        try FileSystemPaths.writeAtomically(data, toPath: url.path)
    }
}
