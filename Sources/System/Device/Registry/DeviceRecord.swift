import FileSystem
import Foundation
import PropertyList

/// The contents of `device.plist`.
struct DeviceRecord: Codable, Sendable {
    static let currentSchema = 1

    var schemaVersion: Int
    var identity: DeviceIdentity
    /// The simulated capacity in bytes; nil reports the host file system.
    var capacity: UInt64?
    /// Custom thresholds; nil uses ``DiskThresholds/defaults(capacity:)``.
    var thresholds: DiskThresholds?
    var created: Date
    /// The launch watchdog's limit in seconds; nil uses
    /// ``LaunchWatchdog/defaultLimit``.
    var launchWatchdogLimit: Double?
}

/// Reading and writing the device's small property-list records.
enum RecordFile {
    static func read<T: Decodable>(_ type: T.Type, from url: URL) throws -> T? {
        let data: Data
        do {
            guard let contents = try FileSystemPaths.readFile(atPath: url.path) else { return nil }
            data = contents
        } catch {
            throw DeviceError(.io, path: url.path, "cannot read \(url.lastPathComponent)").caused(by: error)
        }
        do { return try PropertyListValueDecoder().decode(type, from: data) } catch {
            throw DeviceError(.corrupt, path: url.path, "\(url.lastPathComponent) is malformed").caused(by: error)
        }
    }

    /// Replaces the record at `url`. The device's registry, journal and
    /// identity must survive a power loss once written (an update's commit
    /// point is the journal's rename), so the default is ``Durability/full``;
    /// run records, which describe processes a power loss ends anyway, pass
    /// ``Durability/none``.
    static func write<T: Encodable>(_ value: T, to url: URL, durability: Durability = .full) throws {
        let data: Data
        do { data = try PropertyListValueEncoder().encode(value, as: .xml) } catch {
            throw DeviceError(.io, path: url.path, "cannot encode \(url.lastPathComponent)").caused(by: error)
        }
        do {
            try FileSystemPaths.writeAtomically(data, toPath: url.path,
                                                options: AtomicWriteOptions(durability: durability, permissions: 0o644))
        } catch {
            throw DeviceError(error, path: url.path, "write \(url.lastPathComponent)")
        }
    }
}
