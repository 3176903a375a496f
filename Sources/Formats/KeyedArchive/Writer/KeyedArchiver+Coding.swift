import Foundation
import PropertyList

/// The coder calls: what an archivable type's `encode(with:)` writes.
/// Keys starting with `$` are escaped as Apple does; at the top level
/// (outside any object) values land in `$top`.
extension KeyedArchiver {
    /// Stores `value` as an object reference (`UID(0)`, Apple's `$null`, for nil).
    public func encode<T: KeyedArchiveRepresentable>(_ value: T?, forKey key: String) throws {
        let reference = try value.map { try $0.archive(with: self) } ?? PropertyListUID(0)
        fields[KeyedArchiveFormat.escape(key)] = .uid(reference)
    }

    /// Stores `value` as the next un-keyed value (`$0`, `$1`, …).
    public func encodeUnkeyed<T: KeyedArchiveRepresentable>(_ value: T?) throws {
        let reference = try value.map { try $0.archive(with: self) } ?? PropertyListUID(0)
        fields[KeyedArchiveFormat.unkeyedKey(unkeyedCount)] = .uid(reference)
        unkeyedCount += 1
    }

    /// Stores an integer inline in the object (`encodeInteger:forKey:`).
    public func encodeInteger(_ value: Int, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .integer(PropertyListInteger(Int64(value)))
    }

    /// Stores a 64-bit integer inline in the object (`encodeInt64:forKey:`).
    public func encodeInt64(_ value: Int64, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .integer(PropertyListInteger(value))
    }

    /// Stores a 32-bit integer inline in the object (`encodeInt32:forKey:`, `encodeInt:forKey:`).
    public func encodeInt32(_ value: Int32, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .integer(PropertyListInteger(Int64(value)))
    }

    /// Stores a Boolean inline in the object (`encodeBool:forKey:`).
    public func encodeBool(_ value: Bool, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .bool(value)
    }

    /// Stores a double inline in the object (`encodeDouble:forKey:`).
    public func encodeDouble(_ value: Double, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .real(value)
    }

    /// Stores a float inline in the object (`encodeFloat:forKey:`), as a 32-bit real.
    public func encodeFloat(_ value: Float, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .float(value)
    }

    /// Stores raw bytes inline in the object (`encodeBytes:length:forKey:`).
    public func encodeBytes(_ value: Data, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = .data(value)
    }

    /// Stores a plain property-list value in the object as it is: UIDs in
    /// it must be references this archiver returned. For writing fields
    /// whose shape no coder call produces (such as `NS.objects` arrays).
    public func encodePropertyList(_ value: PropertyListValue, forKey key: String) {
        fields[KeyedArchiveFormat.escape(key)] = value
    }

    /// Stores a plain property-list value under a stored key, unescaped.
    func encodeStored(_ value: PropertyListValue, storedKey: String) {
        fields[storedKey] = value
    }
}

extension KeyedArchiver {
    /// Archives `root` under `root` in `$top`, as `archivedDataWithRootObject:` does.
    public static func archivedData<T: KeyedArchiveRepresentable>(withRootObject root: T,
                                                                  format: PropertyListFormat = .binary) throws -> Data {
        let archiver = KeyedArchiver()
        try archiver.encode(root, forKey: KeyedArchiveFormat.rootKey)
        return try archiver.encodedData(format: format)
    }

    /// Archives `root` to `path` atomically (as `archiveRootObject:toFile:`
    /// does): readers see the old file or the complete new one, never a part.
    public static func archive<T: KeyedArchiveRepresentable>(_ root: T, toFile path: String,
                                                             format: PropertyListFormat = .binary) throws {
        let data = try archivedData(withRootObject: root, format: format)
        try ArchiveFiles.writeAtomically(data, to: path)
    }
}
