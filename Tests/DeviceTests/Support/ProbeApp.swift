@testable import Device
import Foundation
import Testing

/// The escape probe installed on a fixture's device as a real app, beside
/// another app (whose `Documents/secret.txt` it must not read) and a
/// directory outside every container (`secret.txt`, `victim.txt`).
struct ProbeApp {
    let app: InstalledApp
    let other: InstalledApp
    let outside: URL

    init(_ fixture: DeviceFixture) throws {
        let probe = try #require(Helper.locate("escape-probe"), "escape-probe was not built")
        let folder = fixture.bundles.appendingPathComponent("probe")
        let bundle = try TestBundle.make(in: folder, name: "Probe", identifier: "com.example.probe", executable: "Probe")
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("Probe"))
        try FileManager.default.copyItem(at: probe, to: bundle.appendingPathComponent("Probe"))
        app = try fixture.device.install(bundleAt: bundle)
        other = try fixture.install(identifier: "com.example.other")
        try Data("other app's secret".utf8).write(to: other.dataContainerURL.appendingPathComponent("Documents/secret.txt"))
        outside = fixture.temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        try Data("victim".utf8).write(to: outside.appendingPathComponent("victim.txt"))
    }

    /// The probe's arguments naming the outside directory and the other app.
    var arguments: [String] { ["--outside", outside.path, "--other", other.dataContainerURL.path] }
}
