import FileSystem
import Foundation
import OrderedCollections
import PropertyList

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
