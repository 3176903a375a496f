import Device
import Foundation

/// What `device create`, `list` and `info` print about a device.
struct DeviceSummary: Encodable {
    var name, udid, productType, productVersion, path: String
    var capacity: UInt64?

    init(_ device: Device) {
        self.init(identity: device.identity, root: device.root, capacity: device.capacity)
    }

    init(identity: DeviceIdentity, root: URL, capacity: UInt64?) {
        name = identity.name
        udid = identity.udid
        productType = identity.productType
        productVersion = identity.productVersion
        path = root.path
        self.capacity = capacity
    }
}

/// `device info`: the summary plus state, space and apps.
struct DeviceInfo: Encodable {
    var device: DeviceSummary
    var locked: Bool
    var space: DiskSpace
    var thresholds: DiskThresholds
    var apps: [String]
    var running: [String]

    var text: String {
        var lines = [
            "\(device.name) (\(device.udid))",
            "  path: \(device.path)",
            "  model: \(device.productType), iOS \(device.productVersion)",
            "  state: \(locked ? "locked" : "unlocked")",
            "  disk: \(ByteText.format(space.free)) free of \(ByteText.format(space.total))\(space.isSimulated ? " (simulated)" : "")"
                + (space.level == .normal ? "" : ", \(space.level.rawValue)"),
            "  apps: \(apps.count)",
        ]
        if !running.isEmpty { lines.append("  running: \(running.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
    }
}

/// Byte counts for people: `512 B`, `1.5 KB`, `3.2 GB` (powers of 1024, as Finder did before 10.6).
enum ByteText {
    static func format(_ bytes: UInt64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
