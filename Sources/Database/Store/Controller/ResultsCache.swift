import Container
import Foundation
import PropertyList

/// An identifier a persistent results cache can keep: a 64-bit value.
public protocol ResultsCacheIdentifier: Hashable, Sendable {
    var cacheValue: Int64 { get }
    init(cacheValue: Int64)
}

/// A fetched-results controller's optional persistent cache: its last
/// sections and object order, kept in `Library/Caches` where the system may
/// purge them at low disk.
///
/// An entry is used only when the request's ``ResultsFingerprint`` and the
/// store's data token both match what was saved; anything else, including a
/// purged, truncated or foreign file, is a miss and the controller fetches
/// again. A miss is never an error: a cache cannot make results wrong.
public struct ResultsCache: Sendable {
    /// Where the caches live, relative to the container.
    public static let directory = ContainerDirectory.caches.relativePath + "/FetchedResults"

    public let container: AppContainer
    /// The cache's name (`cacheName`), which names its file.
    public let name: String

    public init(container: AppContainer, name: String) {
        self.container = container
        self.name = name
    }

    /// The container-relative path of the cache file. The name is hex-encoded
    /// when it is not a plain file name, so a name can never reach outside
    /// the directory.
    public var path: String {
        let plain = !name.isEmpty && name.count <= 128 && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_.".unicodeScalars.contains($0)) }
        let fileName = plain ? name : "x-" + name.utf8.map { String(format: "%02x", $0) }.joined()
        return "\(Self.directory)/\(fileName).plist"
    }

    /// Why a lookup missed.
    public enum Miss: Sendable, Hashable {
        /// No file: never saved, purged, or deleted.
        case absent
        /// The file is not a cache this code wrote.
        case unreadable
        /// The request changed since the cache was saved.
        case differentRequest
        /// The store's contents changed since the cache was saved.
        case staleData
    }

    /// The cached snapshot for this request and data token, or why there is none.
    public func lookup<ID: ResultsCacheIdentifier>(
        _ type: ID.Type = ID.self, fingerprint: ResultsFingerprint, dataToken: String
    ) -> Result<ResultsSnapshot<ID>, CacheMissError> {
        guard container.fileExists(path) else { return .failure(CacheMissError(miss: .absent, path: path)) }
        guard let data = try? container.read(path),
              let entry = try? PropertyListValueDecoder().decode(ResultsCacheEntry.self, from: data),
              entry.version == ResultsCacheEntry.currentVersion,
              let snapshot = entry.snapshot(of: ID.self) else {
            return .failure(CacheMissError(miss: .unreadable, path: path))
        }
        guard entry.fingerprint == fingerprint.hex else { return .failure(CacheMissError(miss: .differentRequest, path: path)) }
        guard entry.dataToken == dataToken else { return .failure(CacheMissError(miss: .staleData, path: path)) }
        return .success(snapshot)
    }

    /// Saves a snapshot. The write is atomic but not flushed: a cache lost in
    /// a crash is rebuilt, so it is not worth a disk flush.
    public func save<ID: ResultsCacheIdentifier>(
        _ snapshot: ResultsSnapshot<ID>, fingerprint: ResultsFingerprint, dataToken: String
    ) throws {
        let entry = ResultsCacheEntry(snapshot: snapshot, fingerprint: fingerprint.hex, dataToken: dataToken)
        let data = try PropertyListValueEncoder().encode(entry, as: .binary)
        try container.createDirectory(Self.directory)
        try container.writeAtomically(data, to: path, durability: .none)
    }

    /// Deletes the cache (`deleteCache(withName:)`); deleting a missing cache is not an error.
    public func delete() throws {
        guard container.fileExists(path) else { return }
        try container.removeItem(path)
    }
}

/// A cache lookup that missed, and why; the controller fetches instead.
public struct CacheMissError: Error, Sendable, Hashable, CustomStringConvertible {
    public var miss: ResultsCache.Miss
    public var path: String

    public var description: String { "results cache \(path): \(miss)" }
}

/// The cache file: a binary property list.
struct ResultsCacheEntry: Codable {
    static let currentVersion = 1

    struct Section: Codable {
        var name: String
        var indexTitle: String?
        /// The identifiers, 8 bytes each, little-endian: a long list stays one data object.
        var ids: Data
    }

    var version: Int
    var fingerprint: String
    var dataToken: String
    var sections: [Section]

    init<ID: ResultsCacheIdentifier>(snapshot: ResultsSnapshot<ID>, fingerprint: String, dataToken: String) {
        version = Self.currentVersion
        self.fingerprint = fingerprint
        self.dataToken = dataToken
        sections = snapshot.sections.map { section in
            var bytes = Data(capacity: section.ids.count * 8)
            for id in section.ids {
                withUnsafeBytes(of: id.cacheValue.littleEndian) { bytes.append(contentsOf: $0) }
            }
            return Section(name: section.name, indexTitle: section.indexTitle, ids: bytes)
        }
    }

    func snapshot<ID: ResultsCacheIdentifier>(of type: ID.Type) -> ResultsSnapshot<ID>? {
        var result: [ResultsSection<ID>] = []
        for section in sections {
            guard section.ids.count % 8 == 0 else { return nil }
            var ids: [ID] = []
            ids.reserveCapacity(section.ids.count / 8)
            var offset = section.ids.startIndex
            while offset < section.ids.endIndex {
                var raw: Int64 = 0
                for shift in 0..<8 {
                    raw |= Int64(section.ids[offset + shift]) << (8 * Int64(shift))
                }
                ids.append(ID(cacheValue: raw))
                offset += 8
            }
            result.append(ResultsSection(name: section.name, indexTitle: section.indexTitle, ids: ids))
        }
        return ResultsSnapshot(sections: result)
    }
}
