import Foundation

/// Where everything lives in a device directory (see `docs/ARCHITECTURE.md`):
///
/// ```
/// device.plist                         identity, capacity, thresholds
/// applications.plist                   the registry: installed apps, app groups
/// journal.plist                        a committed update/uninstall being finished
/// network.plist                        the radio conditions and the network clock
/// .device.lock                         flock serializing changes
/// Secrets/device-secret                the keychain's device secret
/// Keychains/keychain-2.db              the keychain store
/// Containers/Bundle/Application/<UUID>/<Name>.app
/// Containers/Data/Application/<UUID>/
/// Containers/Shared/AppGroup/<UUID>/
/// System/                              read-only local and system domains
/// run/<bundle id>.plist                running-app records
/// run/launches/<bundle id>.plist       each app's last launch report (the watchdog's kills)
/// ```
struct DeviceLayout: Sendable {
    let root: URL

    var devicePlist: URL { root.appendingPathComponent("device.plist") }
    var registry: URL { root.appendingPathComponent("applications.plist") }
    var journal: URL { root.appendingPathComponent("journal.plist") }
    var networkPlist: URL { root.appendingPathComponent("network.plist") }
    var lockFile: URL { root.appendingPathComponent(".device.lock") }
    var secrets: URL { root.appendingPathComponent("Secrets", isDirectory: true) }
    var secretFile: URL { secrets.appendingPathComponent("device-secret") }
    var keychains: URL { root.appendingPathComponent("Keychains", isDirectory: true) }
    var containers: URL { root.appendingPathComponent("Containers", isDirectory: true) }
    var bundleApplications: URL { containers.appendingPathComponent("Bundle/Application", isDirectory: true) }
    var dataApplications: URL { containers.appendingPathComponent("Data/Application", isDirectory: true) }
    var appGroups: URL { containers.appendingPathComponent("Shared/AppGroup", isDirectory: true) }
    var systemRoot: URL { root.appendingPathComponent("System", isDirectory: true) }
    var run: URL { root.appendingPathComponent("run", isDirectory: true) }

    func bundleContainer(_ uuid: String) -> URL { bundleApplications.appendingPathComponent(uuid, isDirectory: true) }
    func dataContainer(_ uuid: String) -> URL { dataApplications.appendingPathComponent(uuid, isDirectory: true) }
    func groupContainer(_ uuid: String) -> URL { appGroups.appendingPathComponent(uuid, isDirectory: true) }
    func runRecord(_ bundleID: String) -> URL { run.appendingPathComponent(bundleID + ".plist") }
    var launchReports: URL { run.appendingPathComponent("launches", isDirectory: true) }
    func launchReport(_ bundleID: String) -> URL { launchReports.appendingPathComponent(bundleID + ".plist") }

    /// The directories of the system domains, created with the device.
    static let systemDirectories = ["Applications", "Library/Preferences", "Library/Caches", "System/Library/CoreServices",
                                    "Developer"]
}
