import Foundation
import GRDB
import PropertyList
import TestSupport

/// The Core Data fixtures in `../shared/fixtures/coredata/` beside the
/// package root (never copied into the repository). Stores are only ever
/// opened as copies in a temporary directory, so nothing is created beside
/// the shared files.
enum ModelFixtures {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/StoreTests/Model/Support/ModelFixtures.swift → package root
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url
    }()

    static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/coredata")
    static let models = root.appendingPathComponent("models")
    static let stores = root.appendingPathComponent("stores")

    static func names(in directory: URL, suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// Every `.xcdatamodel` `contents` file.
    static let contentsFiles = names(in: models, suffix: "_contents")
    /// Every compiled model (`.mom`).
    static let compiledModels = names(in: models, suffix: ".mom")
    /// Every `.xccurrentversion` file.
    static let currentVersionFiles = names(in: models, suffix: ".xccurrentversion")
    /// Every store.
    static let storeFiles = names(in: stores, suffix: ".sqlite")

    static func modelPath(_ name: String) -> String { models.appendingPathComponent(name).path }

    /// The fixture folder's files with their sizes and modification times,
    /// to show a test left it as it was.
    static func snapshot() throws -> [String: String] {
        var result: [String: String] = [:]
        for directory in [models, stores] {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
                result["\(directory.lastPathComponent)/\(name)"] =
                    "\(attributes[.size] ?? 0) \(attributes[.modificationDate].map { "\($0)" } ?? "")"
            }
        }
        return result
    }

    /// What a store keeps about its model: the compressed cached model and the metadata plist.
    struct StoreModelRows {
        var modelCache: Data?
        var metadata: Data
    }

    /// Reads `Z_MODELCACHE` and `Z_METADATA` from a copy of the store (and its `-wal`).
    static func modelRows(of store: String) throws -> StoreModelRows {
        let directory = try TemporaryDirectory("model-fixture")
        for suffix in ["", "-wal"] {
            let source = stores.appendingPathComponent(store + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try FileManager.default.copyItem(at: source, to: directory.file(store + suffix))
        }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: directory.path(store), configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            let cache = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
            guard let metadata = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return StoreModelRows(modelCache: cache, metadata: metadata)
        }
    }
}

/// Property-list files read for a test's expectations.
enum PropertyListFile {
    static func dictionary(_ path: String) throws -> [String: PropertyListValue] {
        let value = try PropertyListValue.decode(Data(contentsOf: URL(fileURLWithPath: path))).value
        guard let entries = value.dictionaryValue else { throw CocoaError(.fileReadCorruptFile) }
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }
}
