import ArgumentParser
import Device
import Foundation
import Keychain

/// `sandbox install <path.app>`: installs, or updates an installed app, as `simctl install` does.
struct InstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install an app bundle on a device (an installed app is updated, as simctl does).",
        discussion: "The bundle needs an Info.plist with CFBundleIdentifier, CFBundleVersion and CFBundleExecutable. "
            + "An unsealed bundle is sealed; one that does not match its seal is refused.")

    @Argument(help: ArgumentHelp("The .app directory.", valueName: "path"))
    var path: String

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            let device = try options.open()
            let source = URL(fileURLWithPath: path, isDirectory: true)
            let app: InstalledApp
            let verb: String
            do {
                app = try device.install(bundleAt: source)
                verb = "Installed"
            } catch let error as DeviceError where error.code == .alreadyInstalled {
                app = try device.update(bundleAt: source)
                verb = "Updated"
            }
            let summary = AppSummary(app)
            try options.output(json: summary, text: "\(verb) \(summary.line)")
        }
    }
}

/// `sandbox update <path.app>`: updates an installed app, moving its data.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Update an installed app to a new bundle: Documents and Library (not Caches) move over, tmp does not.")

    @Argument(help: ArgumentHelp("The new .app directory; its CFBundleIdentifier names the app.", valueName: "path"))
    var path: String

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            let app = try options.open().update(bundleAt: URL(fileURLWithPath: path, isDirectory: true))
            let summary = AppSummary(app)
            try options.output(json: summary, text: "Updated \(summary.line)")
        }
    }
}

/// `sandbox uninstall <bundle id>`.
struct UninstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall", abstract: "Uninstall an app: its containers go; keychain items stay unless --keychain delete.")

    @Argument(help: ArgumentHelp("The app's bundle identifier.", valueName: "bundle-id"))
    var bundleID: String

    @Option(help: ArgumentHelp("What happens to the app's keychain items: retain (iOS's behaviour) or delete.", valueName: "policy"))
    var keychain: KeychainUninstallPolicy = .retain

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            try options.open().uninstall(bundleID, keychainPolicy: keychain)
            try options.output(json: ["uninstalled": bundleID], text: "")
        }
    }
}

extension KeychainUninstallPolicy: ExpressibleByArgument {}

/// `sandbox listapps`: the installed apps.
struct ListAppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "listapps", abstract: "List the apps installed on a device.")

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            let apps = try options.open().installedApps().map(AppSummary.init)
            try options.output(json: ["apps": apps], text: apps.map(\.line).joined(separator: "\n"))
        }
    }
}

/// `sandbox container <bundle id> [kind]`: one path, as `simctl get_app_container`.
struct ContainerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "container",
        abstract: "Print the path of an app's container.",
        discussion: """
            kind: app (the .app bundle, the default), data (the data container), documents, caches, tmp, \
            groups (one "<group id><TAB><path>" line per app group, as simctl prints), or an app group \
            identifier (group.…).
            """)

    @Argument(help: ArgumentHelp("The app's bundle identifier.", valueName: "bundle-id"))
    var bundleID: String

    @Argument(help: ArgumentHelp("Which container.", valueName: "kind"))
    var kind: String = "app"

    @OptionGroup var options: DeviceOptions

    func validate() throws {
        guard ContainerKind(name: kind) != nil else {
            throw ValidationError("unknown container '\(kind)': use app, data, documents, caches, tmp, groups or a group.… identifier")
        }
    }

    func run() throws {
        try CommandRunner.run {
            let device = try options.open()
            guard let container = ContainerKind(name: kind) else { return }
            if container == .groups {
                let groups = try device.app(bundleID).groupContainers.sorted { $0.key < $1.key }
                try options.output(json: ["groups": Dictionary(uniqueKeysWithValues: groups.map { ($0.key, $0.value.path) })],
                                   text: groups.map { "\($0.key)\t\($0.value.path)" }.joined(separator: "\n"))
                return
            }
            let url = try device.containerURL(bundleID, container)
            try options.output(json: ["path": url.path], text: url.path)
        }
    }
}
