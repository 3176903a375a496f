import FileSystem
import Foundation
import OrderedCollections
import PropertyList

/// The three property lists beside Manifest.db: `Info.plist` (written by
/// the host; XML, as libimobiledevice writes it), `Manifest.plist` (the
/// device's description of the backup, with the keybag) and `Status.plist`
/// (whether the snapshot finished; written last, so its presence marks a
/// complete backup).
enum BackupPropertyLists {
    /// The Info.plist key that marks a backup this module wrote (host-written
    /// keys vary between hosts; readers ignore unknown ones).
    static let writerKey = "Sandbox Backup Version"

    static func info(device: BackupDeviceInfo, applications: [BackupApplication], date: Date) -> PropertyListValue {
        let guid = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let dictionary: OrderedDictionary<String, PropertyListValue> = [
            "Build Version": .string(device.buildVersion),
            "Device Name": .string(device.deviceName),
            "Display Name": .string(device.deviceName),
            "GUID": .string(guid),
            "IMEI": .string(device.imei),
            "Installed Applications": .array(applications.map { .string($0.bundleIdentifier) }),
            "Last Backup Date": .date(date),
            "Product Type": .string(device.productType),
            "Product Version": .string(device.productVersion),
            "Serial Number": .string(device.serialNumber),
            "Target Identifier": .string(device.udid),
            "Target Type": .string("Device"),
            "Unique Identifier": .string(device.udid.uppercased()),
            "iTunes Version": .string("12.13"),
            writerKey: .string("1"),
        ]
        return .dictionary(dictionary)
    }

    static func manifest(device: BackupDeviceInfo, applications: [BackupApplication], date: Date,
                         keyBag: Data, manifestKey: Data?) -> PropertyListValue {
        var apps: OrderedDictionary<String, PropertyListValue> = [:]
        for app in applications {
            apps[app.bundleIdentifier] = .dictionary([
                "CFBundleIdentifier": .string(app.bundleIdentifier),
                "CFBundleVersion": .string(app.version),
                "ContainerContentClass": .string("Data/Application"),
                "Path": .string(app.path),
            ])
        }
        var dictionary: OrderedDictionary<String, PropertyListValue> = [
            "Applications": .dictionary(apps),
            "BackupKeyBag": .data(keyBag),
            "Date": .date(date),
            "IsEncrypted": .bool(manifestKey != nil),
            "Lockdown": .dictionary([
                "BuildVersion": .string(device.buildVersion),
                "DeviceName": .string(device.deviceName),
                "ProductType": .string(device.productType),
                "ProductVersion": .string(device.productVersion),
                "SerialNumber": .string(device.serialNumber),
                "UniqueDeviceID": .string(device.udid),
            ]),
        ]
        if let manifestKey { dictionary["ManifestKey"] = .data(manifestKey) }
        dictionary["SystemDomainsVersion"] = .string("24.0")
        dictionary["Version"] = .string("10.0")
        dictionary["WasPasscodeSet"] = .bool(false)
        return .dictionary(dictionary)
    }

    static func status(date: Date, isFullBackup: Bool) -> PropertyListValue {
        .dictionary([
            "BackupState": .string("new"),
            "Date": .date(date),
            "IsFullBackup": .bool(isFullBackup),
            "SnapshotState": .string("finished"),
            "UUID": .string(UUID().uuidString),
            "Version": .string("3.3"),
        ])
    }

    /// Reads the property list file `name` of the backup held by
    /// `directory` (never through a link), or nil when it does not exist;
    /// anything but a regular file there is refused
    /// (``MobileBackupErrorCode/notARegularFile``).
    static func read(_ name: String, in directory: DirectoryHandle) throws -> PropertyListValue? {
        let path = directory.path + "/" + name
        // A link, a FIFO or a device in its place is refused by name (notARegularFile).
        guard let data = try directory.readBackupFile(name) else { return nil }
        do {
            let value = try PropertyListValue(data: data)
            guard case .dictionary = value else {
                throw MobileBackupError(.malformedPropertyList, path: path, "the property list is not a dictionary")
            }
            return value
        } catch let error as MobileBackupError {
            throw error
        } catch {
            throw MobileBackupError(.malformedPropertyList, path: path, "cannot read the property list").caused(by: error)
        }
    }
}
