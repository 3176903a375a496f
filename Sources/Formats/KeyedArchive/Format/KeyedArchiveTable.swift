import Foundation
import OrderedCollections
import PropertyList

/// The plain tables of a keyed archive — `$top` and `$objects` — checked
/// for the envelope Apple's unarchiver requires, but not yet resolved.
///
/// This is the layer tools use to show an archive as stored (`sandbox
/// archive json --raw`); ``KeyedUnarchiver`` resolves references on top of it.
public struct KeyedArchiveTable: Hashable, Sendable {
    /// `$archiver`; always ``KeyedArchiveFormat/archiverName`` once read.
    public var archiver: String
    /// `$version`; always ``KeyedArchiveFormat/version`` once read.
    public var version: Int64
    /// `$top`: the top-level keys (`root` for a root object).
    public var top: OrderedDictionary<String, PropertyListValue>
    /// `$objects`: every archived object, `$null` first.
    public var objects: [PropertyListValue]

    /// Creates tables; `objects` should start with `$null`.
    public init(top: OrderedDictionary<String, PropertyListValue>, objects: [PropertyListValue]) {
        self.archiver = KeyedArchiveFormat.archiverName
        self.version = KeyedArchiveFormat.version
        self.top = top
        self.objects = objects
    }

    /// Reads the tables from a binary or XML property list.
    public init(data: Data, limits: PropertyListLimits = .default) throws {
        let value: PropertyListValue
        do {
            value = try PropertyListValue(data: data, limits: limits)
        } catch let error as PropertyListError {
            throw KeyedArchiveError(.invalidPropertyList, "not a readable property list", underlying: error)
        }
        try self.init(propertyList: value)
    }

    /// Checks a decoded property list for the keyed-archive envelope.
    public init(propertyList: PropertyListValue) throws {
        guard case .dictionary(let root) = propertyList else {
            throw KeyedArchiveError(.notAnArchive, "the property list is a \(propertyList.typeName), not an archive dictionary")
        }
        guard let archiver = root[KeyedArchiveFormat.archiverKey]?.stringValue else {
            throw KeyedArchiveError(.wrongArchiver, "$archiver is missing or not a string")
        }
        guard archiver == KeyedArchiveFormat.archiverName else {
            throw KeyedArchiveError(.wrongArchiver, "$archiver is \(InputExcerpt.quoted(archiver)), not \"\(KeyedArchiveFormat.archiverName)\"")
        }
        guard let version = root[KeyedArchiveFormat.versionKey]?.int64Value, version == KeyedArchiveFormat.version else {
            throw KeyedArchiveError(.unsupportedVersion, "$version is \(root[KeyedArchiveFormat.versionKey].map(Self.describe) ?? "missing"), not 100000")
        }
        guard case .dictionary(let top)? = root[KeyedArchiveFormat.topKey] else {
            throw KeyedArchiveError(.notAnArchive, "$top is missing or not a dictionary")
        }
        guard case .array(let objects)? = root[KeyedArchiveFormat.objectsKey], !objects.isEmpty else {
            throw KeyedArchiveError(.notAnArchive, "$objects is missing, empty or not an array")
        }
        self.archiver = archiver
        self.version = version
        self.top = top
        self.objects = objects
    }

    /// The archive as one property-list dictionary, in the key order Apple's
    /// XML writer produces (`$archiver`, `$objects`, `$top`, `$version`).
    public var propertyList: PropertyListValue {
        .dictionary([
            KeyedArchiveFormat.archiverKey: .string(archiver),
            KeyedArchiveFormat.objectsKey: .array(objects),
            KeyedArchiveFormat.topKey: .dictionary(top),
            KeyedArchiveFormat.versionKey: .integer(PropertyListInteger(version)),
        ])
    }

    /// The archive serialized as a binary or XML property list.
    public func encoded(as format: PropertyListFormat = .binary) throws -> Data {
        guard format == .binary || format == .xml else {
            throw KeyedArchiveError(.unsupportedValue, "keyed archives are written as binary or XML, not \(format.displayName)")
        }
        do {
            return try propertyList.encoded(as: format)
        } catch let error as PropertyListError {
            throw KeyedArchiveError(.unsupportedValue, "cannot serialize the archive", underlying: error)
        }
    }

    static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .integer(let integer): integer.description
        case .string(let string): "\(InputExcerpt.quoted(string))"
        default: "a \(value.typeName)"
        }
    }
}
