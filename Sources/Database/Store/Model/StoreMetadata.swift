import Foundation
import OrderedCollections
import PropertyList

/// A store's metadata: the binary property list in `Z_METADATA.Z_PLIST`
/// (what `NSPersistentStoreCoordinator.metadataForPersistentStore` returns).
///
/// It names the store type and records the version hashes of the model that
/// wrote the store, which is how Core Data decides whether a model opens the
/// store as it is or must migrate it first. Keys this type does not know are
/// kept in ``otherEntries`` and written back unchanged.
public struct StoreMetadata: Sendable, Hashable {
    /// `NSStoreType`: `"SQLite"` for the stores this module reads.
    public var storeType: String
    /// `NSStoreModelVersionHashes`: each entity's 32-byte hash.
    public var versionHashes: ModelVersionHashes
    /// `NSStoreModelVersionHashesVersion`: the hashing scheme (3 since Mac OS X 10.6).
    public var versionHashesVersion: Int
    /// `NSStoreModelVersionHashesDigest`, decoded from base64 (absent before framework ~1000).
    public var versionHashesDigest: Data?
    /// `NSStoreModelVersionChecksumKey`, decoded from base64 (newer frameworks only).
    public var versionChecksum: Data?
    /// `NSStoreModelVersionIdentifiers`: the model's version identifiers.
    public var versionIdentifiers: [String]
    /// `NSPersistenceFrameworkVersion`: the Core Data build that wrote the store.
    public var frameworkVersion: Int?
    /// `NSPersistenceMaximumFrameworkVersion`, when written.
    public var maximumFrameworkVersion: Int?
    /// `_NSAutoVacuumLevel`, a string such as `"2"`.
    public var autoVacuumLevel: String?
    /// Every other entry (an app's own metadata, `NSStoreUUID` when present…), in stored order.
    public var otherEntries: OrderedDictionary<String, PropertyListValue>

    /// The framework version this module writes: that of the newest fixture stores.
    public static let writtenFrameworkVersion = 1344

    /// Metadata describing a store written with `model`: its hashes,
    /// digest, checksum and version identifiers, and Core Data's usual values.
    public init(model: ObjectModel, frameworkVersion: Int = StoreMetadata.writtenFrameworkVersion) {
        let hashes = model.versionHashes
        self.storeType = "SQLite"
        self.versionHashes = hashes
        self.versionHashesVersion = 3
        self.versionHashesDigest = hashes.digest
        self.versionChecksum = hashes.checksum
        self.versionIdentifiers = model.versionIdentifiers
        self.frameworkVersion = frameworkVersion
        self.maximumFrameworkVersion = nil
        self.autoVacuumLevel = "2"
        self.otherEntries = [:]
    }

    private enum Key {
        static let storeType = "NSStoreType"
        static let hashes = "NSStoreModelVersionHashes"
        static let hashesVersion = "NSStoreModelVersionHashesVersion"
        static let digest = "NSStoreModelVersionHashesDigest"
        static let checksum = "NSStoreModelVersionChecksumKey"
        static let identifiers = "NSStoreModelVersionIdentifiers"
        static let framework = "NSPersistenceFrameworkVersion"
        static let maximumFramework = "NSPersistenceMaximumFrameworkVersion"
        static let autoVacuum = "_NSAutoVacuumLevel"
        static let known: Set<String> = [storeType, hashes, hashesVersion, digest, checksum, identifiers, framework,
                                         maximumFramework, autoVacuum]
    }

    /// Reads `Z_METADATA.Z_PLIST` (a binary, or any other, property list).
    public init(propertyList data: Data) throws(ModelError) {
        let value: PropertyListValue
        do { value = try PropertyListValue.decode(data).value } catch {
            throw ModelError(.invalidMetadata, "Z_PLIST is not a property list").caused(by: error)
        }
        guard let entries = value.dictionaryValue else { throw ModelError(.invalidMetadata, "Z_PLIST is a \(value.typeName), not a dictionary") }
        func fail(_ key: String, _ expected: String) -> ModelError {
            ModelError(.invalidMetadata, "\(key) is \(entries[key]?.typeName ?? "missing"), not \(expected)", element: key)
        }
        guard let type = entries[Key.storeType]?.stringValue else { throw fail(Key.storeType, "a string") }
        guard let hashEntries = entries[Key.hashes]?.dictionaryValue else { throw fail(Key.hashes, "a dictionary") }
        var hashes: [String: Data] = [:]
        for (name, hash) in hashEntries {
            guard let bytes = hash.dataValue else { throw fail(Key.hashes, "a dictionary of data (entry \(name))") }
            hashes[name] = bytes
        }
        func base64(_ key: String) throws(ModelError) -> Data? {
            guard let stored = entries[key] else { return nil }
            if let bytes = stored.dataValue { return bytes }
            guard let text = stored.stringValue, let bytes = Data(base64Encoded: text) else { throw fail(key, "base64 text") }
            return bytes
        }
        func integer(_ key: String) throws(ModelError) -> Int? {
            guard let stored = entries[key] else { return nil }
            if let number = stored.int64Value, let small = Int(exactly: number) { return small }
            if let text = stored.stringValue, let number = Int(text) { return number }
            throw fail(key, "an integer")
        }
        storeType = type
        versionHashes = ModelVersionHashes(entities: hashes)
        versionHashesVersion = try integer(Key.hashesVersion) ?? 3
        versionHashesDigest = try base64(Key.digest)
        versionChecksum = try base64(Key.checksum)
        if let identifiers = entries[Key.identifiers] {
            guard let list = identifiers.arrayValue else { throw fail(Key.identifiers, "an array") }
            versionIdentifiers = list.compactMap(\.stringValue)
        } else {
            versionIdentifiers = []
        }
        frameworkVersion = try integer(Key.framework)
        maximumFrameworkVersion = try integer(Key.maximumFramework)
        autoVacuumLevel = entries[Key.autoVacuum]?.stringValue ?? entries[Key.autoVacuum]?.int64Value.map { String($0) }
        otherEntries = entries.filter { !Key.known.contains($0.key) }
    }

    /// The metadata as Core Data stores it: a binary property list, with the
    /// digest and checksum as base64 strings.
    public func propertyListData() throws(ModelError) -> Data {
        var entries = OrderedDictionary<String, PropertyListValue>()
        if let maximumFrameworkVersion { entries[Key.maximumFramework] = .integer(PropertyListInteger(Int64(maximumFrameworkVersion))) }
        entries[Key.identifiers] = .array(versionIdentifiers.map { .string($0) })
        entries[Key.storeType] = .string(storeType)
        if let autoVacuumLevel { entries[Key.autoVacuum] = .string(autoVacuumLevel) }
        if let versionHashesDigest { entries[Key.digest] = .string(versionHashesDigest.base64EncodedString()) }
        if let versionChecksum { entries[Key.checksum] = .string(versionChecksum.base64EncodedString()) }
        var hashes = OrderedDictionary<String, PropertyListValue>()
        for name in versionHashes.sortedNames { hashes[name] = .data(versionHashes.entities[name] ?? Data()) }
        entries[Key.hashes] = .dictionary(hashes)
        if let frameworkVersion { entries[Key.framework] = .integer(PropertyListInteger(Int64(frameworkVersion))) }
        entries[Key.hashesVersion] = .integer(PropertyListInteger(Int64(versionHashesVersion)))
        for (key, value) in otherEntries { entries[key] = value }
        do { return try PropertyListValue.dictionary(entries).encoded(as: .binary) } catch {
            throw ModelError(.invalidMetadata, "cannot encode the metadata").caused(by: error)
        }
    }

    /// Whether `model` opens the store without migration: the same entities with the same hashes.
    public func isCompatible(with model: ObjectModel) -> Bool {
        model.versionHashes.entities == versionHashes.entities
    }
}
