import Container
import FileSystem
import Foundation

/// Building an app's new containers before the operation commits. Nothing
/// here is visible until the registry or journal names it; a crash leaves
/// unnamed directories that recovery deletes.
extension Device {
    /// Copies the bundle into a new bundle container, seals it if it has no
    /// seal (refusing it if the seal does not match), and makes a new data
    /// container; returns the app's registry record.
    func stage(_ source: URL, validated bundle: AppBundle) throws -> AppRecord {
        let identifier = bundle.info.identifier
        let bundleUUID = UUID().uuidString
        let dataUUID = UUID().uuidString
        let container = layout.bundleContainer(bundleUUID)
        let copy = container.appendingPathComponent(source.lastPathComponent, isDirectory: true)
        do {
            try FileSystemPaths.makeDirectories(atPath: container.path)
        } catch {
            throw DeviceError(error, bundleID: identifier, path: container.path, "create the bundle container")
        }
        do {
            try BundleCopy.copy(from: source.path, to: copy.path)
        } catch {
            try? remove(container, bundleID: identifier)
            let code: DeviceError.Code = error.isNoSpace ? .diskFull : .io
            throw DeviceError(code, bundleID: identifier, path: source.path, "cannot copy the bundle").caused(by: error)
        }
        let installed: AppBundle
        let entitlements: AppEntitlements
        do {
            installed = try AppBundle(at: copy)
            // The copy is checked, not the source, so what was verified is
            // what is installed.
            switch try installed.verifySeal() {
            case .valid: break
            case .unsealed: try installed.seal()
            case .modified(let paths):
                let shown = paths.prefix(5).joined(separator: ", ") + (paths.count > 5 ? ", …" : "")
                throw DeviceError(.sealMismatch, bundleID: identifier, path: source.path,
                                  "the bundle does not match its seal (\(paths.count) changed: \(shown))")
            }
            entitlements = try AppEntitlements.read(from: installed)
            try ContainerMetadata.write(in: container, identifier: identifier, uuid: bundleUUID, contentClass: .bundle)
            try makeDataContainer(dataUUID, identifier: identifier, bundleURL: copy)
        } catch {
            try? remove(container, bundleID: identifier)
            try? remove(layout.dataContainer(dataUUID), bundleID: identifier)
            throw DeviceError.wrapping(error, bundleID: identifier, path: source.path, "install the bundle")
        }
        return AppRecord(bundleID: identifier, version: installed.info.version, shortVersion: installed.info.shortVersion,
                         bundleName: copy.lastPathComponent, bundleUUID: bundleUUID, dataUUID: dataUUID,
                         // Whole seconds: the registry's XML dates keep no more.
                         entitlements: entitlements, installed: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    private func makeDataContainer(_ uuid: String, identifier: String, bundleURL: URL) throws {
        let url = layout.dataContainer(uuid)
        _ = try AppContainer.create(at: url, bundleURL: bundleURL)
        try ContainerMetadata.write(in: url, identifier: identifier, uuid: uuid, contentClass: .data)
    }

    /// Adds a container for each of the app's groups that has none yet.
    func stageGroups(_ record: AppRecord, in registry: inout AppRegistry) throws {
        for group in record.entitlements.applicationGroups where registry.groups[group] == nil {
            let uuid = UUID().uuidString
            let url = layout.groupContainer(uuid)
            do {
                for directory in ContainerDirectory.layout(of: .group) {
                    try FileSystemPaths.makeDirectories(atPath: url.appendingPathComponent(directory.relativePath).path)
                }
            } catch {
                throw DeviceError(error, bundleID: record.bundleID, path: url.path, "create the app group container")
            }
            try ContainerMetadata.write(in: url, identifier: group, uuid: uuid, contentClass: .appGroup)
            registry.groups[group] = uuid
        }
    }
}
