import ArgumentParser
import Device
import Foundation

/// `sandbox device list`: the devices in the devices directory.
struct DeviceListCommand: ParsableCommand, JSONOrTextOutput {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the named devices.")

    @Flag(help: "Print JSON (stable) instead of text.")
    var json = false

    func run() throws {
        try CommandRunner.run {
            let devices = Device.list().map { DeviceSummary(identity: $0.identity, root: $0.root, capacity: nil) }
            let text = devices.map { "\($0.name) (\($0.udid))" }.joined(separator: "\n")
            try output(json: ["devices": devices], text: text)
        }
    }
}

/// `sandbox device info`: identity, lock state, disk space, apps.
struct DeviceInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Show a device's identity, state, disk space and apps.")

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            let device = try options.open()
            let info = DeviceInfo(device: DeviceSummary(device), locked: try device.isLocked, space: try device.freeSpace(),
                                  thresholds: device.thresholds, apps: try device.installedBundleIDs(),
                                  running: try device.runningApps().map(\.bundleID))
            try options.output(json: info, text: info.text)
        }
    }
}

/// `sandbox device erase`: removes every app and keychain item.
struct DeviceEraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase", abstract: "Erase all apps, containers and keychain items (the identity stays).")

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            try options.open().erase()
            try options.output(json: ["erased": true], text: "")
        }
    }
}

/// `sandbox device lock`.
struct DeviceLockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Lock the device: whenUnlocked keychain items become unreadable.")

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            try options.open().lock()
            try options.output(json: ["locked": true], text: "")
        }
    }
}

/// `sandbox device unlock`.
struct DeviceUnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unlock", abstract: "Unlock the device.")

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            try options.open().unlock()
            try options.output(json: ["locked": false], text: "")
        }
    }
}

/// `sandbox device boot`: recovery, stale run records, tmp of idle apps.
struct DeviceBootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boot", abstract: "Start the device: finish interrupted operations and empty tmp of apps not running.")

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            let report = try options.open().boot()
            try options.output(json: report, text: "Removed \(report.files) files from tmp (\(ByteText.format(report.bytes))).")
        }
    }
}
