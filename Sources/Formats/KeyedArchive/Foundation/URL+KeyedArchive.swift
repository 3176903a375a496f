import Foundation
import PropertyList

/// URLs are `NSURL` objects: `{NS.base: base URL or $null, NS.relative: string}`.
extension URL: KeyedArchiveRepresentable {
    /// `NSURL`.
    public static var keyedArchiveClassNames: [String] { ["NSURL"] }

    /// Stores an `NSURL` object with its base URL, if any, and relative string.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archiver.encodeObject(class: .url, identity: nil) { coder in
            try coder.encode(baseURL, forKey: FoundationKeys.base)
            try coder.encode(relativeString, forKey: FoundationKeys.relative)
        }
    }

    /// Reads an `NSURL` object; a relative string that is not a URL is an error.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> URL {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { coder, _ in
            let base = try coder.decodeIfPresent(URL.self, forKey: FoundationKeys.base)
            let relative = try coder.decode(String.self, forKey: FoundationKeys.relative)
            guard let url = URL(string: relative, relativeTo: base) else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: coder.currentIndex, key: FoundationKeys.relative, "\(InputExcerpt.quoted(relative)) is not a URL")
            }
            return url
        }
    }
}
