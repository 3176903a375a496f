import Foundation
import PropertyList

/// Data is stored inline in `$objects`, as Apple stores NSData.
/// `NSMutableData` objects (`{NS.data}` or `NS.bytes`) read too.
extension Data: KeyedArchiveRepresentable, InlineArchivable {
    /// `NSData` and `NSMutableData`.
    public static var keyedArchiveClassNames: [String] { ["NSData", "NSMutableData"] }

    /// Stores the bytes inline in `$objects`.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        archiver.encodeInlineObject(.data(self))
    }

    /// Reads inline data or an `NSData`/`NSMutableData` object.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Data {
        try unarchiver.decodeInlineOrObject(at: reference, classNames: keyedArchiveClassNames, expected: "data",
                                            inline: fromInline) { coder, _ in
            if let bytes = try coder.decodeInlineOrReference(Data.self, forKey: FoundationKeys.data) { return bytes }
            if let bytes = try coder.decodeInlineOrReference(Data.self, forKey: FoundationKeys.bytes) { return bytes }
            throw KeyedArchiveError(.keyNotFound, objectIndex: coder.currentIndex, key: FoundationKeys.data, "the data object has no NS.data")
        }
    }

    static func fromInline(_ value: PropertyListValue) -> Data? { value.dataValue }
}
