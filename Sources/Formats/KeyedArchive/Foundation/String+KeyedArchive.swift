import Foundation
import PropertyList

/// Strings are stored inline in `$objects`, as Apple stores NSString.
/// `NSMutableString` objects (`{NS.string}`, or UTF-8 `NS.bytes`) read too.
extension String: KeyedArchiveRepresentable, InlineArchivable {
    /// `NSString` and `NSMutableString`.
    public static var keyedArchiveClassNames: [String] { ["NSString", "NSMutableString"] }

    /// Stores the string inline in `$objects`.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        archiver.encodeInlineObject(.string(self))
    }

    /// Reads an inline string or an `NSString`/`NSMutableString` object.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> String {
        try unarchiver.decodeInlineOrObject(at: reference, classNames: keyedArchiveClassNames, expected: "a string",
                                            inline: fromInline) { coder, _ in
            if let text = try coder.decodeInlineOrReference(String.self, forKey: FoundationKeys.string) { return text }
            if let bytes = try coder.decodeInlineOrReference(Data.self, forKey: FoundationKeys.bytes) {
                guard let text = String(bytes: bytes, encoding: .utf8) else {
                    throw KeyedArchiveError(.typeMismatch, objectIndex: coder.currentIndex, key: FoundationKeys.bytes, "NS.bytes is not UTF-8")
                }
                return text
            }
            throw KeyedArchiveError(.keyNotFound, objectIndex: coder.currentIndex, key: FoundationKeys.string, "the string object has no NS.string")
        }
    }

    static func fromInline(_ value: PropertyListValue) -> String? { value.stringValue }
}
