import ArgumentParser
import CloudBackup
import CloudProtocol
import Device
import Foundation

/// `sandbox cloud signin`: signs the device in to an account.
struct CloudSignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin",
        abstract: "Sign the device in to iCloud backup (creating the account with --create).",
        discussion: """
            The password never leaves the device: a key derived from it signs the device in, and \
            other keys derived from it encrypt and name every chunk. The password comes from \
            --password or $SANDBOX_CLOUD_PASSWORD.

            Examples:
              sandbox cloud signin --service http://127.0.0.1:8417 --account ada@example.com --create
              SANDBOX_CLOUD_PASSWORD=secret sandbox cloud signin --account ada@example.com --device iPad
            """)

    @Option(help: "The service's URL.")
    var service = "http://127.0.0.1:8417/"

    @Option(help: "The account name.")
    var account: String

    @Option(help: "The password (default: $SANDBOX_CLOUD_PASSWORD).")
    var password: String?

    @Flag(help: "Create the account first.")
    var create = false

    @OptionGroup var options: DeviceOptions

    func run() async throws {
        try await CommandRunner.run {
            guard let password = password ?? ProcessInfo.processInfo.environment["SANDBOX_CLOUD_PASSWORD"], !password.isEmpty else {
                throw ValidationError("Give the password with --password or $SANDBOX_CLOUD_PASSWORD.")
            }
            let device = try options.open()
            let signedIn = try await CloudAccount.signIn(device: device, service: service, account: account, password: password, create: create)
            let result = CloudSignInJSON(service: signedIn.service, account: signedIn.account, deviceID: signedIn.deviceID, device: device.identity.name)
            try options.output(json: result, text: "\(device.identity.name) signed in to \(signedIn.account) at \(signedIn.service) (device \(signedIn.deviceID))")
        }
    }
}

struct CloudSignInJSON: Encodable {
    var service: String
    var account: String
    var deviceID: Int64
    var device: String
}

/// `sandbox cloud backup`: backs the device up to iCloud.
struct CloudBackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back the device up to iCloud (when locked, on power and on Wi-Fi, unless --now).",
        discussion: """
            Only the chunks the service lacks are sent; apps whose backup is off are left out. An \
            interrupted backup keeps the previous snapshot, and the next one resumes.

            Examples:
              sandbox network set --lock on --power on && sandbox cloud backup
              sandbox cloud backup --now --json
            """)

    @Flag(help: "Back up even when the device is not locked, on power and on Wi-Fi.")
    var now = false

    @Option(help: "Chunks sent at once.")
    var parallel = 8

    @OptionGroup var options: DeviceOptions

    func run() async throws {
        try await CloudTransferRunner.run(options, text: CloudText.backup) { device, account, progress in
            try await CloudBackup.backUp(device: device, account: account, now: now, concurrency: parallel, progress: progress)
        }
    }
}

/// `sandbox cloud restore`: restores the device from iCloud.
struct CloudRestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore the device from an iCloud snapshot (its own, or another device's of the account).",
        discussion: """
            The snapshot becomes a MobileBackup directory, then the device is restored from it as \
            from a local backup. --export keeps that directory for other tools (iOSbackup, mvt…).

            Examples:
              sandbox cloud restore --device iPad --from 1
              sandbox cloud restore --export /tmp/export --export-only
            """)

    @Option(help: "The device id whose snapshot to restore (see `sandbox cloud status`; default: this device).")
    var from: Int64?

    @Option(help: "Keep the MobileBackup directory in this directory.")
    var export: String?

    @Flag(help: "Only export; do not restore the device.")
    var exportOnly = false

    @OptionGroup var options: DeviceOptions

    func validate() throws {
        if exportOnly && export == nil { throw ValidationError("--export-only needs --export DIR.") }
    }

    func run() async throws {
        try await CloudTransferRunner.run(options, text: CloudText.restore) { device, account, progress in
            try await CloudRestore.restore(device: device, account: account, sourceDevice: from, exportTo: export,
                                           restoreDevice: !exportOnly, progress: progress)
        }
    }
}

/// `sandbox cloud status`: the account's quota, usage and devices.
struct CloudStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the account's quota, usage, devices and their last snapshots.",
        discussion: "Example: sandbox cloud status --json")

    @OptionGroup var options: DeviceOptions

    func run() async throws {
        try await CommandRunner.run {
            let account = try CloudAccount.load(from: try options.open())
            let status = try await account.client.account()
            try options.output(json: status, text: CloudText.status(status, thisDevice: account.deviceID))
        }
    }
}

/// `sandbox cloud apps`: turns an app's backup on or off.
struct CloudAppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List, or turn on or off, the apps whose data this device backs up to iCloud.",
        discussion: """
            As Settings › iCloud › Storage & Backup › Manage Storage: an app turned off is left out \
            of the next snapshot, and its bytes are freed after the service's garbage collection.

            Examples:
              sandbox cloud apps
              sandbox cloud apps com.example.Possessions --off
            """)

    @Argument(help: "The app's bundle id.")
    var bundleID: String?

    @Flag(help: "Turn the app's backup on.")
    var on = false

    @Flag(help: "Turn the app's backup off.")
    var off = false

    @OptionGroup var options: DeviceOptions

    func validate() throws {
        if on && off { throw ValidationError("Give --on or --off, not both.") }
        if (on || off) && bundleID == nil { throw ValidationError("Name the app to turn on or off.") }
    }

    func run() async throws {
        try await CommandRunner.run {
            let device = try options.open()
            let account = try CloudAccount.load(from: device)
            let appsOff: [String]
            if let bundleID, on || off {
                appsOff = try await account.client.setApp(bundleID, enabled: on, device: account.deviceID)
            } else {
                appsOff = try await account.client.appsOff(device: account.deviceID)
            }
            let apps = try device.installedApps().map(\.bundleID).sorted()
            let result = CloudAppsJSON(apps: apps.map { .init(bundleID: $0, backsUp: !appsOff.contains($0)) })
            try options.output(json: result, text: result.apps.map { "\($0.backsUp ? "on " : "off") \($0.bundleID)" }.joined(separator: "\n"))
        }
    }
}

struct CloudAppsJSON: Encodable {
    struct App: Encodable {
        var bundleID: String
        var backsUp: Bool
    }

    var apps: [App]
}
