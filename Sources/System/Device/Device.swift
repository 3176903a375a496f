import Container
import FileSystem
import Foundation
import Keychain

/// A simulated iOS device: a directory holding its identity, keychain, app
/// containers and read-only system domains (layout in `docs/ARCHITECTURE.md`).
///
/// ```swift
/// let device = try Device.create(at: Device.defaultRoot(name: "ci"), name: "ci")
/// let app = try device.install(bundleAt: URL(fileURLWithPath: "Build/Notes.app"))
/// try app.dataContainer().writeAtomically(Data("hi".utf8), to: "Documents/a.txt")
/// ```
///
/// Changes to the set of installed apps (install, update, uninstall, erase)
/// hold an exclusive lock on the device and are atomic: after a crash at any
/// moment, ``open(at:)`` finds the old state or the new one. Any number of
/// processes may open one device.
public final class Device: Sendable {
    /// The device directory.
    public let root: URL
    /// Who the device is.
    public let identity: DeviceIdentity
    /// The device-level keychain, outside every container (`Keychains/`).
    public let keychain: Keychain
    /// The simulated capacity in bytes, or nil for the host's file system.
    public let capacity: UInt64?
    /// The free-space levels at which apps are warned and caches purged.
    public let thresholds: DiskThresholds

    let layout: DeviceLayout
    let deviceSecret: KeychainDeviceSecret

    /// The read-only directory behind the local and system search-path
    /// domains (`System/`): `Applications`, `Library`, `System/Library`.
    public var systemRoot: URL { layout.systemRoot }

    private init(root: URL, record: DeviceRecord, secret: KeychainDeviceSecret) throws {
        self.root = root
        layout = DeviceLayout(root: root)
        identity = record.identity
        capacity = record.capacity
        thresholds = record.thresholds ?? DiskThresholds.defaults(capacity: record.capacity ?? 64 << 30)
        deviceSecret = secret
        do { keychain = try Keychain(storeDirectory: layout.keychains, deviceSecret: secret) } catch {
            throw DeviceError.wrapping(error, path: layout.keychains.path, "open the keychain")
        }
    }

    // MARK: Where devices live

    /// The directory that holds named devices: `$SANDBOX_HOME/devices`, else
    /// `~/.local/share/sandbox/devices` (``SandboxHome/devices``).
    public static func devicesDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        SandboxHome(environment: environment).devices
    }

    /// The directory of the device called `name` in ``devicesDirectory(environment:)``.
    public static func defaultRoot(name: String) -> URL {
        devicesDirectory().appendingPathComponent(name, isDirectory: true)
    }

    /// Whether `url` holds a device.
    public static func isDevice(at url: URL) -> Bool {
        FileSystemPaths.isRegularFile(atPath: DeviceLayout(root: url).devicePlist.path)
    }

    // MARK: Creating and opening

    /// Creates a device at `root` (which must not hold one): a new UDID and
    /// device secret, empty containers, the system domains, an unlocked
    /// keychain. `capacity` simulates a disk of that many bytes.
    public static func create(at root: URL, name: String, capacity: UInt64? = nil,
                              identity: DeviceIdentity? = nil, thresholds: DiskThresholds? = nil) throws -> Device {
        let layout = DeviceLayout(root: root)
        guard !isDevice(at: root) else {
            throw DeviceError(.deviceExists, path: root.path, "a device already exists at \(root.path)")
        }
        do {
            try FileSystemPaths.makeDirectories(atPath: root.path)
            for directory in [layout.bundleApplications, layout.dataApplications, layout.appGroups, layout.run] {
                try FileSystemPaths.makeDirectories(atPath: directory.path)
            }
            // Only the device (root) reads the keychain and its secret.
            try FileSystemPaths.makeDirectories(atPath: layout.keychains.path, permissions: 0o700)
            for system in DeviceLayout.systemDirectories {
                try FileSystemPaths.makeDirectories(atPath: layout.systemRoot.appendingPathComponent(system).path)
            }
            try FileSystemPaths.makeDirectories(atPath: layout.secrets.path, permissions: 0o700)
        } catch {
            throw DeviceError(error, path: root.path, "create the device directory")
        }
        let secret = KeychainDeviceSecret.random()
        if !FileSystemPaths.isRegularFile(atPath: layout.secretFile.path) {
            // Flushed with its directory: a device whose secret is lost
            // cannot open its keychain.
            let options = AtomicWriteOptions(durability: .full, permissions: 0o600)
            do { try FileSystemPaths.writeAtomically(secret.bytes, toPath: layout.secretFile.path, options: options) } catch {
                throw DeviceError(error, path: layout.secretFile.path, "write the device secret")
            }
        }
        var chosen = identity ?? DeviceIdentity(udid: UUID().uuidString, name: name)
        chosen.name = name
        let record = DeviceRecord(schemaVersion: DeviceRecord.currentSchema, identity: chosen, capacity: capacity,
                                  thresholds: thresholds, created: Date())
        // device.plist last: until it exists the directory is not a device,
        // so an interrupted create can simply be run again.
        try RecordFile.write(record, to: layout.devicePlist)
        return try open(at: root)
    }

    /// Opens the device at `root` and finishes or discards whatever an
    /// interrupted install, update or uninstall left (see ``recover()``).
    ///
    /// - Throws: ``DeviceErrorCode/notADevice`` when `root` holds no device.
    public static func open(at root: URL) throws -> Device {
        let layout = DeviceLayout(root: root)
        guard let record = try RecordFile.read(DeviceRecord.self, from: layout.devicePlist) else {
            throw DeviceError(.notADevice, path: root.path, "no device at \(root.path)")
        }
        guard let secretData = (try? FileSystemPaths.readFile(atPath: layout.secretFile.path)) ?? nil else {
            throw DeviceError(.corrupt, path: layout.secretFile.path, "the device secret is missing")
        }
        let secret: KeychainDeviceSecret
        do { secret = try KeychainDeviceSecret(secretData) } catch {
            throw DeviceError(.corrupt, path: layout.secretFile.path, "the device secret is malformed")
        }
        let device = try Device(root: root, record: record, secret: secret)
        if FileSystemPaths.exists(atPath: layout.journal.path) || device.hasDebris() { try device.recover() }
        return device
    }

    /// The devices in `directory` (default ``devicesDirectory(environment:)``), by name.
    public static func list(in directory: URL = devicesDirectory()) -> [(identity: DeviceIdentity, root: URL)] {
        let names = (try? FileSystemPaths.entries(atPath: directory.path)) ?? []
        return names.compactMap { name in
            let root = directory.appendingPathComponent(name, isDirectory: true)
            guard let record = try? RecordFile.read(DeviceRecord.self, from: DeviceLayout(root: root).devicePlist) else { return nil }
            return (record.identity, root)
        }
    }

    // MARK: Serializing changes

    /// Runs `body` holding the device's exclusive lock (`flock` on
    /// `.device.lock`), which a killed process releases.
    func withDeviceLock<T>(_ body: () throws -> T) throws -> T {
        let lock: LockFile
        do { lock = try LockFile.acquire(atPath: layout.lockFile.path) } catch {
            throw DeviceError(error, path: layout.lockFile.path, "lock the device")
        }
        defer { lock.release() }
        return try body()
    }

    func readRegistry() throws -> AppRegistry {
        try RecordFile.read(AppRegistry.self, from: layout.registry) ?? AppRegistry()
    }
}
