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
}

/// Reading and writing the device's small property-list records.
enum RecordFile {
    static func read<T: Decodable>(_ type: T.Type, from url: URL) throws -> T? {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            if !Platform.exists(url.path) { return nil }
            throw DeviceError(.io, path: url.path, "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
        do { return try PropertyListValueDecoder().decode(type, from: data) } catch {
            throw DeviceError(.corrupt, path: url.path, "\(url.lastPathComponent) is malformed: \(error)")
        }
    }

    static func write<T: Encodable>(_ value: T, to url: URL) throws {
        let data: Data
        do { data = try PropertyListValueEncoder().encode(value, as: .xml) } catch {
            throw DeviceError(.io, path: url.path, "cannot encode \(url.lastPathComponent): \(error)")
        }
        do { try Platform.writeAtomically(data, to: url.path) } catch {
            throw DeviceError(error, path: url.path, "write \(url.lastPathComponent)")
        }
    }
}
