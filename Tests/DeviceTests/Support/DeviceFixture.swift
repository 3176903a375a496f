@testable import Device
import Foundation
import PropertyList
import TestSupport

/// A temporary device with bundles made next to it.
final class DeviceFixture {
    let temp: TemporaryDirectory
    let device: Device
    let bundles: URL

    init(_ label: String = "device", capacity: UInt64? = nil, thresholds: DiskThresholds? = nil) throws {
        temp = try TemporaryDirectory(label)
        bundles = temp.url.appendingPathComponent("bundles", isDirectory: true)
        try FileManager.default.createDirectory(at: bundles, withIntermediateDirectories: true)
        device = try Device.create(at: temp.url.appendingPathComponent("device"), name: "test", capacity: capacity,
                                   thresholds: thresholds)
    }

    /// A bundle of `version` in its own folder (so versions do not clash).
    func bundle(version: String = "1", identifier: String = "com.example.notes", name: String = "Notes",
                files: [String: String] = [:], entitlements: PropertyListValue? = nil) throws -> URL {
        let folder = bundles.appendingPathComponent("\(identifier)-\(version)-\(UUID().uuidString)", isDirectory: true)
        return try TestBundle.make(in: folder, name: name, identifier: identifier, version: version, files: files,
                                   entitlements: entitlements)
    }

    func install(version: String = "1", identifier: String = "com.example.notes") throws -> InstalledApp {
        try device.install(bundleAt: try bundle(version: version, identifier: identifier))
    }

    /// The UUID directories under `Containers/<kind>`.
    func containerDirectories(_ kind: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: device.root.appendingPathComponent("Containers/\(kind)").path)) ?? [])
            .sorted()
    }
}
