import Container
import Device
import FileSystem
import Foundation
import StorageAudit
import TestSupport
import Testing

/// A device's apps are walked on several threads at once: the audit must be
/// what one thread auditing the apps one after another gives, every time,
/// hard links between the apps included.
@Suite struct ParallelAuditTests {
    /// Five apps, each with files of its own and hard links within it; the
    /// third and fourth hold links to the first's files, in a category other
    /// than the one where the first counts them.
    static func device(_ temp: TemporaryDirectory) throws -> Device {
        let device = try Device.create(at: temp.url.appendingPathComponent("device"), name: "parallel")
        var containers: [AppContainer] = []
        for index in 0..<5 {
            let identifier = "com.example.app\(index)"
            let folder = temp.url.appendingPathComponent("\(identifier)/App.app")
            try FileSystemWrite.file(folder.appendingPathComponent("Info.plist"), try AuditFixture.infoPlist(identifier, executable: "App"))
            try FileSystemWrite.file(folder.appendingPathComponent("App"), Data("#!/bin/sh\n".utf8))
            let container = try device.install(bundleAt: folder).dataContainer()
            for set in 0..<4 { try container.createDirectory("Documents/Set\(set)") }
            try container.createDirectory("Library/Caches/img")
            for file in 0..<40 {
                try container.writeAtomically(Data(repeating: UInt8(file), count: 1_000 * (file + index + 1)),
                                              to: "Documents/Set\(file % 4)/file\(file).bin", durability: .none)
            }
            try container.writeAtomically(Data(repeating: 7, count: 9_000), to: "Library/Caches/img/a.png", durability: .none)
            try container.writeAtomically(Data(repeating: 8, count: 3_000), to: "tmp/t", durability: .none)
            containers.append(container)
        }
        let first = containers[0].root.standardizedFileURL.path
        for (index, container) in containers.enumerated() {
            let root = container.root.standardizedFileURL.path
            // Within the app: a second name for one of its own files.
            try shell("ln '\(root)/Documents/Set1/file5.bin' '\(root)/Library/Caches/img/own-link.bin'")
            // Across apps: the first app's files, met again later.
            if index == 2 || index == 3 {
                try shell("mkdir -p '\(root)/Library/Application Support/Shared' && ln '\(first)/Documents/Set0/file0.bin' "
                          + "'\(root)/Library/Application Support/Shared/from-first.bin' && ln '\(first)/Documents/Set2/file2.bin' "
                          + "'\(root)/tmp/from-first.bin'")
            }
        }
        return device
    }

    static func shell(_ command: String) throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
        #expect(result.status == 0, "\(command): \(result.standardError)")
    }

    @Test func aParallelAuditIsTheSequentialOneEveryTime() throws {
        let temp = try TemporaryDirectory("audit-parallel")
        let device = try Self.device(temp)
        // The reference: one auditor, the apps one after another in order.
        var sequential = StorageAuditor()
        var expected: [AppStorageAudit] = []
        for app in try device.installedApps().sorted(by: { $0.bundleID < $1.bundleID }) {
            expected.append(try sequential.audit(bundleID: app.bundleID, container: try app.dataContainer(), bundle: app.bundle,
                                                 keychainItems: try device.keychain.itemCount(for: app.entitlements.keychain)))
        }
        #expect(expected.count == 5)
        for _ in 0..<6 {
            var auditor = StorageAuditor()
            let audit = try auditor.audit(device: device)
            // The device audit lists the apps by size; compare them app by app.
            #expect(audit.apps.sorted { $0.bundleID < $1.bundleID } == expected)
        }
        // The links into the later apps were counted in the first app only.
        let total = expected.reduce(0) { $0 + $1.total.allocatedBytes }
        let roots = try device.installedApps().flatMap { [$0.dataContainerURL.path, $0.bundleContainer.path] }
        let du = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/du"), ["-s", "-B1", "-c"] + roots)
        let duTotal = du.output.split(separator: "\n").last?.split(separator: "\t").first.flatMap { UInt64($0) }
        #expect(total == duTotal)
    }

    @Test func progressHearsOfEachAppOnceInOrder() throws {
        let temp = try TemporaryDirectory("audit-parallel-progress")
        let device = try Self.device(temp)
        var heard: [AuditProgress] = []
        var auditor = StorageAuditor()
        _ = try auditor.audit(device: device) { heard.append($0) }
        #expect(heard.map(\.index) == Array(0..<5))
        #expect(heard.map(\.bundleID) == (0..<5).map { "com.example.app\($0)" })
    }
}
