import ArgumentParser
import Device
import Foundation

/// `sandbox device create <name>`: a new device; prints its UDID, as `simctl create` does.
struct DeviceCreateCommand: ParsableCommand, JSONOrTextOutput {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a device and print its UDID.")

    @Argument(help: ArgumentHelp("The device's name (also its directory name under the devices directory).", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Create the device at this directory instead.", valueName: "path"))
    var path: String?

    @Option(help: ArgumentHelp("Simulate a disk of this size (bytes, or with K, M, G, T).", valueName: "size"))
    var capacity: ByteCount?

    @Flag(help: "Print JSON (stable) instead of text.")
    var json = false

    func validate() throws {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw ValidationError("a device name is one path component, not starting with '.'")
        }
    }

    func run() throws {
        try CommandRunner.run {
            let root = path.map { DeviceName.root(of: $0.contains("/") ? $0 : "./" + $0) } ?? Device.defaultRoot(name: name)
            let device = try Device.create(at: root, name: name, capacity: capacity?.bytes)
            try output(json: DeviceSummary(device), text: device.identity.udid)
        }
    }
}

/// A byte count given as `1048576`, `512K`, `64M`, `8G` or `1T` (powers of 1024).
struct ByteCount: ExpressibleByArgument {
    var bytes: UInt64

    init?(argument: String) {
        let units: [Character: UInt64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var text = argument.uppercased()
        if text.hasSuffix("B") { text.removeLast() }
        var scale: UInt64 = 1
        if let last = text.last, let unit = units[last] {
            scale = unit
            text.removeLast()
        }
        guard let value = UInt64(text), value > 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        bytes = product
    }
}
