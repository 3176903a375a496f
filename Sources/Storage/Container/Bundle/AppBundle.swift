import Crypto
import FileSystem
import Foundation
import OrderedCollections
import PropertyList
import SystemPackage

/// A read-only app bundle (`Notes.app`): its `Info.plist`, resources with
/// `pathForResource:ofType:` lookup and localization, and a seal of SHA-256
/// hashes like `_CodeSignature/CodeResources`.
///
/// Reads go through a descriptor held on the bundle directory and resolve
/// beneath it, like the container's.
public struct AppBundle: Sendable {
    /// The bundle directory.
    public var url: URL
    /// The keys of `Info.plist` (binary or XML).
    public var info: BundleInfo

    let directory: ConfinedDirectory

    /// Opens a bundle and reads its `Info.plist`.
    public init(at url: URL) throws {
        self.url = url
        directory = try ConfinedDirectory(openingAt: url, resolver: .automatic, caseCheck: .automatic)
        let data = try Self.read(directory, try ContainerPath("Info.plist"))
        let value: PropertyListValue
        do { value = try PropertyListValue(data: data) }
        catch { throw ContainerError(.corrupt, path: "Info.plist", "Info.plist is not a property list").caused(by: error) }
        info = try BundleInfo(value)
    }

    /// The bytes of a file in the bundle (bundle-relative path).
    public func contents(ofRelativePath path: String) throws -> Data {
        try Self.read(directory, try ContainerPath(path))
    }

    static func read(_ directory: ConfinedDirectory, _ path: ContainerPath) throws(ContainerError) -> Data {
        try directory.readFile(path, mappedAbove: ContainerOptions.default.mappedReadThreshold)
    }
}

/// Resource lookup as `-[NSBundle pathForResource:ofType:inDirectory:]`
/// does it: the non-localized location first, then the `.lproj` directory of
/// the best of the user's preferred languages, then the development region's,
/// then `Base.lproj`.
extension AppBundle {
    /// The bundle's localizations: the names of its `*.lproj` directories
    /// without the extension (`Base` included), sorted.
    public var localizations: [String] {
        let names = (try? directory.listing(.root)) ?? []
        return names.filter { $0.hasSuffix(".lproj") }.map { String($0.dropLast(6)) }.sorted()
    }

    /// The `.lproj` directories searched, best first, for a user whose
    /// languages are `preferredLanguages` (BCP 47 tags such as `fr-CA`).
    public func localizationSearchOrder(preferredLanguages: [String]) -> [String] {
        let available = localizations
        var order: [String] = []
        // Like CFBundle, one localization is chosen from the user's list:
        // the first language the bundle has (exact tag, then its language).
        if let chosen = preferredLanguages.lazy.compactMap({ Self.match($0, in: available) }).first {
            order.append(chosen)
        }
        if let region = info.developmentRegion, let match = Self.match(region, in: available), !order.contains(match) {
            order.append(match)
        }
        if available.contains("Base"), !order.contains("Base") { order.append("Base") }
        return order
    }

    /// The localization in `available` that serves `language`, if any.
    static func match(_ language: String, in available: [String]) -> String? {
        let tag = language.replacingOccurrences(of: "_", with: "-")
        let base = String(tag.split(separator: "-").first ?? Substring(tag)).lowercased()
        let candidates = [language, tag, tag.replacingOccurrences(of: "-", with: "_"), base, legacyNames[base]].compactMap { $0 }
        for candidate in candidates {
            if let found = available.first(where: { $0.caseInsensitiveCompare(candidate) == .orderedSame }) { return found }
        }
        // A regional localization (`pt-BR`) serves the bare language (`pt`).
        return available.first { $0.lowercased().hasPrefix(base + "-") || $0.lowercased().hasPrefix(base + "_") }
    }

    /// The English names old bundles use for their `.lproj` directories.
    private static let legacyNames: [String: String] = [
        "en": "English", "fr": "French", "de": "German", "ja": "Japanese", "es": "Spanish",
        "it": "Italian", "nl": "Dutch",
    ]

    /// The URL of a resource, or nil. `ext` may be nil or empty when `name`
    /// carries its extension; an empty `name` finds the first file (by name)
    /// with extension `ext`.
    public func path(forResource name: String, ofType ext: String?, inDirectory subdirectory: String? = nil,
                     preferredLanguages: [String] = []) -> URL? {
        guard let relative = relativePath(forResource: name, ofType: ext, inDirectory: subdirectory,
                                          preferredLanguages: preferredLanguages) else { return nil }
        return url.appendingPathComponent(relative)
    }

    /// The bundle-relative path of a resource (see
    /// ``path(forResource:ofType:inDirectory:preferredLanguages:)``).
    public func relativePath(forResource name: String, ofType ext: String?, inDirectory subdirectory: String? = nil,
                             preferredLanguages: [String] = []) -> String? {
        let type = ext.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? ""
        let bases = [""] + localizationSearchOrder(preferredLanguages: preferredLanguages).map { $0 + ".lproj" }
        for base in bases {
            let folder = [base, subdirectory ?? ""].filter { !$0.isEmpty }.joined(separator: "/")
            if name.isEmpty {
                guard !type.isEmpty, let folderPath = try? ContainerPath(folder),
                      let names = try? directory.listing(folderPath) else { continue }
                if let first = names.filter({ $0.hasSuffix("." + type) }).sorted().first {
                    return folder.isEmpty ? first : folder + "/" + first
                }
                continue
            }
            let file = type.isEmpty ? name : name + "." + type
            let candidate = folder.isEmpty ? file : folder + "/" + file
            guard let path = try? ContainerPath(candidate), !path.isRoot else { continue }
            if let fd = try? directory.open(path, .readOnly, options: .pathOnly, action: "look up") {
                fd.closeQuietly()
                return candidate
            }
        }
        return nil
    }

    // MARK: Typed property-list resources

    /// A property-list resource, decoded (binary, XML, OpenStep or
    /// `.strings`).
    public func propertyList(forResource name: String, ofType ext: String? = "plist", inDirectory subdirectory: String? = nil,
                             preferredLanguages: [String] = []) throws -> PropertyListValue {
        let file = ext.map { name + "." + $0 } ?? name
        guard let relative = relativePath(forResource: name, ofType: ext, inDirectory: subdirectory,
                                          preferredLanguages: preferredLanguages) else {
            throw ContainerError(.notFound, path: file, "no such resource in the bundle")
        }
        let data = try contents(ofRelativePath: relative)
        do { return try PropertyListValue(data: data) }
        catch { throw ContainerError(.corrupt, path: relative, "the resource is not a property list").caused(by: error) }
    }

    /// A property-list resource whose root is a dictionary.
    public func dictionary(forResource name: String, ofType ext: String? = "plist", inDirectory subdirectory: String? = nil,
                           preferredLanguages: [String] = []) throws -> OrderedDictionary<String, PropertyListValue> {
        let value = try propertyList(forResource: name, ofType: ext, inDirectory: subdirectory, preferredLanguages: preferredLanguages)
        guard let dictionary = value.dictionaryValue else {
            throw ContainerError(.corrupt, path: name, "the resource's root is \(value.typeName), not a dictionary")
        }
        return dictionary
    }

    /// A property-list resource whose root is an array.
    public func array(forResource name: String, ofType ext: String? = "plist", inDirectory subdirectory: String? = nil,
                      preferredLanguages: [String] = []) throws -> [PropertyListValue] {
        let value = try propertyList(forResource: name, ofType: ext, inDirectory: subdirectory, preferredLanguages: preferredLanguages)
        guard let array = value.arrayValue else {
            throw ContainerError(.corrupt, path: name, "the resource's root is \(value.typeName), not an array")
        }
        return array
    }

    /// A property-list resource decoded into a `Decodable` type.
    public func decode<T: Decodable>(_ type: T.Type, forResource name: String, ofType ext: String? = "plist",
                                     inDirectory subdirectory: String? = nil, preferredLanguages: [String] = []) throws -> T {
        let value = try propertyList(forResource: name, ofType: ext, inDirectory: subdirectory, preferredLanguages: preferredLanguages)
        return try PropertyListValueDecoder().decode(T.self, from: value)
    }

    /// `-[NSBundle localizedStringForKey:value:table:]`: the string for `key`
    /// in `<table>.strings` of the best localization that has it; `value`
    /// (or the key) when none does.
    public func localizedString(forKey key: String, value: String? = nil, table: String? = nil,
                                preferredLanguages: [String] = []) -> String {
        let tableName = (table?.isEmpty ?? true) ? "Localizable" : table ?? "Localizable"
        for localization in localizationSearchOrder(preferredLanguages: preferredLanguages) {
            let relative = "\(localization).lproj/\(tableName).strings"
            guard let path = try? ContainerPath(relative), let data = try? Self.read(directory, path),
                  let strings = try? PropertyListValue(data: data), let found = strings[key]?.stringValue else { continue }
            return found
        }
        if let value, !value.isEmpty { return value }
        return key
    }
}

/// The bundle seal: `_CodeSignature/CodeResources`, an XML property list
/// whose `files2` dictionary maps every bundle-relative path to
/// `{hash2 = <SHA-256>}` (or `{symlink = <target>}` for links), the key
/// names Apple's code signing uses. Unlike Apple's, the manifest also covers
/// `Info.plist` and the executable, which a real signature binds elsewhere:
/// here the seal is the only guard.
extension AppBundle {
    /// Where the seal lives, relative to the bundle.
    public static let sealPath = "_CodeSignature/CodeResources"

    /// Hashes every file in the bundle and writes the seal, atomically.
    public func seal() throws {
        var files = OrderedDictionary<String, PropertyListValue>()
        for (path, entry) in try manifest().sorted(by: { $0.key < $1.key }) {
            files[path] = entry.propertyList
        }
        let value: PropertyListValue = .dictionary([
            "files2": .dictionary(files),
            "rules2": .dictionary([
                "^.*": .bool(true),
                "^_CodeSignature/": .dictionary(["omit": .bool(true), "weight": .real(20)]),
            ]),
        ])
        let data = try value.encoded(as: .xml)
        let root = directory.root.descriptor
        do {
            try root.makeDirectoryIfMissing("_CodeSignature")
            let folder = try root.openDirectory("_CodeSignature")
            defer { folder.closeQuietly() }
            try folder.writeAtomically(data, to: "CodeResources",
                                       options: AtomicWriteOptions(durability: .full, permissions: 0o644))
        } catch {
            throw ContainerError(error, path: Self.sealPath, "write the seal")
        }
    }

    /// Checks the bundle against its seal.
    public func verifySeal() throws -> BundleSealStatus {
        guard let report = try sealReport() else { return .unsealed }
        return report.isValid ? .valid : .modified(report.allPaths)
    }

    /// The files modified, added and removed since the bundle was sealed, or
    /// nil when it is not sealed.
    public func sealReport() throws -> BundleSealReport? {
        let data: Data
        do { data = try contents(ofRelativePath: Self.sealPath) } catch let error as ContainerError where error.code == .notFound {
            return nil
        }
        let sealed: OrderedDictionary<String, PropertyListValue>
        do {
            guard let files = try PropertyListValue(data: data)["files2"]?.dictionaryValue else {
                throw ContainerError(.corrupt, path: Self.sealPath, "the seal has no files2 dictionary")
            }
            sealed = files
        } catch let error as ContainerError {
            throw error
        } catch {
            throw ContainerError(.corrupt, path: Self.sealPath, "the seal is not a property list").caused(by: error)
        }
        let current = try manifest()
        var report = BundleSealReport(modified: [], added: [], removed: [])
        for (path, entry) in current {
            if let expected = sealed[path] {
                if expected != entry.propertyList { report.modified.append(path) }
            } else {
                report.added.append(path)
            }
        }
        report.removed = sealed.keys.filter { current[$0] == nil }
        report.modified.sort()
        report.added.sort()
        report.removed.sort()
        return report
    }

    // MARK: The manifest

    enum ManifestEntry: Equatable {
        case file(Data)
        case link(String)

        var propertyList: PropertyListValue {
            switch self {
            case .file(let hash): .dictionary(["hash2": .data(hash)])
            case .link(let target): .dictionary(["symlink": .string(target)])
            }
        }
    }

    /// Every file and link below the bundle except the seal's folder. The
    /// walk never follows a link, and a file swapped between the scan and
    /// its read is an error, not hashed in place of the one seen.
    func manifest() throws -> [String: ManifestEntry] {
        var result: [String: ManifestEntry] = [:]
        do {
            try directory.root.descriptor.walkTree { entry, parent throws(FileSystemError) in
                if entry.path == "_CodeSignature" { return .skip }
                if entry.status.isSymbolicLink {
                    result[entry.path] = .link(try parent.readLink(entry.name))
                } else if entry.status.isRegularFile {
                    let fd = try parent.openSeen(entry.name, as: entry.status)
                    defer { fd.closeQuietly() }
                    result[entry.path] = .file(try Self.sha256(fd))
                }
                return .descend
            }
        } catch {
            throw ContainerError(error, path: "", "hash the bundle")
        }
        return result
    }

    private static func sha256(_ fd: FileDescriptor) throws(FileSystemError) -> Data {
        var hasher = SHA256()
        let chunk = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: UInt64 = 0
        while true {
            let count = try fd.readFully(into: buffer, at: offset)
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += UInt64(count)
            if count < chunk { break }
        }
        return Data(hasher.finalize())
    }
}
