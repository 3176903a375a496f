import FileSystem
import Foundation
import PropertyList

/// What a backup says about itself, from whichever of `Info.plist`,
/// `Manifest.plist` and `Status.plist` it has (real backups may lack the
/// last two).
public struct BackupInfo: Sendable, Hashable {
    /// The device, from `Manifest.plist`'s `Lockdown` or else `Info.plist`
    /// (fields neither has are empty).
    public var device: BackupDeviceInfo
    /// Whether the backup is encrypted (`IsEncrypted`).
    public var isEncrypted: Bool
    /// When the backup was made (`Date` or `Last Backup Date`).
    public var date: Date?
    /// `SnapshotState` (`finished` for a complete backup), if there is a `Status.plist`.
    public var snapshotState: String?
    /// `IsFullBackup`, if there is a `Status.plist`.
    public var isFullBackup: Bool?
    /// The apps `Manifest.plist` lists (`Applications`), and those only
    /// `Info.plist` lists (`Installed Applications`, bundle IDs alone), sorted.
    public var applications: [BackupApplication]
    /// Whether `Manifest.plist` and `Status.plist` exist.
    public var hasManifestPlist: Bool
    /// See ``hasManifestPlist``.
    public var hasStatusPlist: Bool
    /// Whether this module wrote the backup.
    public var writtenBySandbox: Bool

    /// What the property lists of the backup at `directory` say, without
    /// opening Manifest.db (so no password is needed).
    public static func read(directory: URL) throws -> BackupInfo {
        let root = directory.standardizedFileURL.path
        let handle: DirectoryHandle
        do { handle = try DirectoryHandle(openingAt: root) } catch {
            throw MobileBackupError(.notABackup, path: root, "no backup directory here").caused(by: error)
        }
        // A Manifest.db that is a link, a FIFO or a device is refused by name.
        guard try handle.backupFileStatus("Manifest.db") != nil else {
            throw MobileBackupError(.notABackup, path: root, "the directory has no Manifest.db")
        }
        return load(info: try BackupPropertyLists.read("Info.plist", in: handle),
                    manifest: try BackupPropertyLists.read("Manifest.plist", in: handle),
                    status: try BackupPropertyLists.read("Status.plist", in: handle), directoryName: directory.lastPathComponent)
    }

    static func load(info: PropertyListValue?, manifest: PropertyListValue?, status: PropertyListValue?,
                     directoryName: String) -> BackupInfo {
        let lockdown = manifest?["Lockdown"]
        func text(_ lockdownKey: String, _ infoKey: String) -> String {
            lockdown?[lockdownKey]?.stringValue ?? info?[infoKey]?.stringValue ?? ""
        }
        var udid = text("UniqueDeviceID", "Target Identifier")
        if udid.isEmpty { udid = directoryName }
        let device = BackupDeviceInfo(udid: udid, deviceName: text("DeviceName", "Device Name"),
                                      productType: text("ProductType", "Product Type"),
                                      productVersion: text("ProductVersion", "Product Version"),
                                      buildVersion: text("BuildVersion", "Build Version"),
                                      serialNumber: text("SerialNumber", "Serial Number"),
                                      imei: info?["IMEI"]?.stringValue ?? "")
        var applications: [BackupApplication] = []
        for (identifier, entry) in manifest?["Applications"]?.dictionaryValue ?? [:] {
            applications.append(BackupApplication(bundleIdentifier: identifier,
                                                  version: entry["CFBundleVersion"]?.stringValue ?? "",
                                                  path: entry["Path"]?.stringValue ?? ""))
        }
        // Real backups often lack Manifest.plist (or its Applications); their
        // Info.plist lists the bundle IDs under "Installed Applications".
        let listed = Set(applications.map(\.bundleIdentifier))
        for case let identifier? in (info?["Installed Applications"]?.arrayValue ?? []).map(\.stringValue)
        where !listed.contains(identifier) && !identifier.isEmpty {
            applications.append(BackupApplication(bundleIdentifier: identifier, version: "", path: ""))
        }
        applications = Dictionary(applications.map { ($0.bundleIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
            .values.sorted { $0.bundleIdentifier < $1.bundleIdentifier }
        return BackupInfo(device: device, isEncrypted: manifest?["IsEncrypted"]?.boolValue ?? false,
                          date: manifest?["Date"]?.dateValue ?? info?["Last Backup Date"]?.dateValue,
                          snapshotState: status?["SnapshotState"]?.stringValue,
                          isFullBackup: status?["IsFullBackup"]?.boolValue,
                          applications: applications, hasManifestPlist: manifest != nil, hasStatusPlist: status != nil,
                          writtenBySandbox: info?[BackupPropertyLists.writerKey] != nil)
    }
}
