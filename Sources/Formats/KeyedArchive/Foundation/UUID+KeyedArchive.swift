import Foundation
import PropertyList

/// UUIDs are `NSUUID` objects: `{NS.uuidbytes: <16 bytes>}`.
extension UUID: KeyedArchiveRepresentable {
    /// `NSUUID`.
    public static var keyedArchiveClassNames: [String] { ["NSUUID"] }

    /// Stores an `NSUUID` object.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archiver.encodeObject(class: .uuid, identity: nil) { coder in
            coder.encodeBytes(withUnsafeBytes(of: uuid) { Data($0) }, forKey: FoundationKeys.uuidBytes)
        }
    }

    /// Reads an `NSUUID` object; its bytes must be exactly 16.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> UUID {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { coder, _ in
            guard let bytes = try coder.decodeBytes(forKey: FoundationKeys.uuidBytes), bytes.count == 16 else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: coder.currentIndex, key: FoundationKeys.uuidBytes, "NS.uuidbytes is not 16 bytes")
            }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes) }
            return UUID(uuid: value)
        }
    }
}
