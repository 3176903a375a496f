import FileSystem
import Foundation
import PropertyList

/// `.com.apple.mobile_container_manager.metadata.plist`, written at the root
/// of every container so tools can find an app's containers by scanning for
/// `MCMMetadataIdentifier`, as they do on iOS.
enum ContainerMetadata {
    static let fileName = ".com.apple.mobile_container_manager.metadata.plist"

    /// `MCMMetadataContentClass`: 2 is an app's data container (seen on
    /// devices); 1 for bundles and 7 for app groups follow MobileContainerManager's
    /// numbering as tools report it.
    enum ContentClass: Int64 {
        case bundle = 1
        case data = 2
        case appGroup = 7
    }

    static func write(in directory: URL, identifier: String, uuid: String, contentClass: ContentClass) throws {
        let value: PropertyListValue = [
            "MCMMetadataActiveDPClass": 0,
            "MCMMetadataContentClass": .integer(PropertyListInteger(contentClass.rawValue)),
            "MCMMetadataIdentifier": .string(identifier),
            "MCMMetadataInfo": ["com.apple.MobileInstallation.ContentProtectionClass": 0],
            "MCMMetadataSchemaVersion": 1,
            "MCMMetadataUUID": .string(uuid),
        ]
        let url = directory.appendingPathComponent(fileName)
        // Flushed with the directory: tools find a container by this file,
        // so it must be there after a power loss that keeps the registry.
        let options = AtomicWriteOptions(durability: .full, permissions: 0o644)
        do { try FileSystemPaths.writeAtomically(try value.encoded(as: .binary), toPath: url.path, options: options) } catch let error as FileSystemError {
            throw DeviceError(error, bundleID: identifier, path: url.path, "write the container metadata")
        } catch {
            throw DeviceError.wrapping(error, bundleID: identifier, path: url.path, "write the container metadata")
        }
    }

    /// The `MCMMetadataIdentifier` of the container at `directory`, if any.
    static func identifier(in directory: URL) -> String? {
        guard let data = (try? FileSystemPaths.readFile(atPath: directory.appendingPathComponent(fileName).path)) ?? nil,
              let value = try? PropertyListValue(data: data) else { return nil }
        return value["MCMMetadataIdentifier"]?.stringValue
    }
}
