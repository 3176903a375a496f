import FileSystem
import Foundation
import PropertyList

/// All the versions of a model: an `.xcdatamodeld` bundle (one
/// `<name>.xcdatamodel/contents` per version and `.xccurrentversion`) or a
/// compiled `.momd` bundle (one `.mom` per version and `VersionInfo.plist`).
///
/// ```swift
/// let bundle = try ModelBundle(path: "Model.xcdatamodeld")
/// let metadata = try StoreMetadata(propertyList: plist)
/// if let written = bundle.versionName(matching: metadata.versionHashes) {
///     let plans = try MigrationPlan.chain(bundle.models(from: written, to: bundle.currentVersionName))
/// }
/// ```
public struct ModelBundle: Sendable, Hashable {
    /// Each version's model, by version name (`"Model 2"`, without extension).
    public var versions: [String: ObjectModel]
    /// The version the bundle marks as current, when it says.
    public var currentVersionName: String?

    public init(versions: [String: ObjectModel], currentVersionName: String? = nil) {
        self.versions = versions
        self.currentVersionName = currentVersionName
    }

    /// Reads an `.xcdatamodeld` or `.momd` directory.
    public init(path: String) throws(ModelError) {
        let names: [String]
        do { names = try FileSystemPaths.entries(atPath: path, followLinks: true) } catch {
            throw ModelError(.fileIO, "cannot list the bundle", path: path).caused(by: error)
        }
        var versions: [String: ObjectModel] = [:]
        var current: String?
        for name in names {
            let entry = path + "/" + name
            if name.hasSuffix(".xcdatamodel") {
                versions[String(name.dropLast(".xcdatamodel".count))] = try ObjectModel(contentsFile: entry + "/contents")
            } else if name.hasSuffix(".mom") {
                versions[String(name.dropLast(".mom".count))] = try ObjectModel(compiledModelFile: entry)
            } else if name == ".xccurrentversion" {
                current = try ModelVersionFiles.currentVersionName(ofFile: entry)
            } else if name == "VersionInfo.plist" {
                let data = try ModelFiles.read(entry)
                let value = try? PropertyListValue.decode(data).value
                current = value?["NSManagedObjectModel_CurrentVersionName"]?.stringValue
            }
        }
        guard !versions.isEmpty else { throw ModelError(.invalidElement, "no .xcdatamodel or .mom versions", path: path) }
        if let current, versions[current] == nil {
            throw ModelError(.unresolvedReference, "the current version \(current) is not in the bundle", path: path)
        }
        self.init(versions: versions, currentVersionName: current ?? (versions.count == 1 ? versions.keys.first : nil))
    }

    /// The version names in migration order: numbers inside names compare
    /// as numbers (`Model`, `Model 2`, …, `Model 10`; `v1.2.0` before `v2.0.0`).
    public var orderedVersionNames: [String] {
        versions.keys.sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
    }

    /// The current version's model.
    public var currentModel: ObjectModel? { currentVersionName.flatMap { versions[$0] } }

    /// The version whose entities hash as `hashes` (what a store's metadata
    /// records): the model that wrote the store.
    public func versionName(matching hashes: ModelVersionHashes) -> String? {
        orderedVersionNames.first { versions[$0]?.versionHashes.entities == hashes.entities }
    }

    /// The models from version `first` to version `last`, in migration
    /// order, for ``MigrationPlan/chain(_:)``; empty when either is unknown
    /// or `last` comes before `first`.
    public func models(from first: String, to last: String?) -> [ObjectModel] {
        let names = orderedVersionNames
        guard let last, let start = names.firstIndex(of: first), let end = names.firstIndex(of: last), start <= end else { return [] }
        return names[start...end].compactMap { versions[$0] }
    }
}
