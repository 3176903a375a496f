import Foundation
import PropertyList

/// The Codable bridge: any `Encodable` value is turned into a property-list
/// value (``PropertyListValueEncoder``) and archived as Foundation objects
/// (`NSDictionary`, `NSArray`, `NSDate`, inline strings and numbers), which
/// Apple's unarchiver reads as plain Foundation collections. Reading goes
/// the other way and also accepts objects of custom classes, whose coder
/// keys become the keys a `Decodable` type reads.
extension KeyedArchiver {
    /// Archives a Codable value as the root object.
    public static func archivedData<T: Encodable>(encoding value: T, format: PropertyListFormat = .binary) throws -> Data {
        let plain: PropertyListValue
        do {
            plain = try PropertyListValueEncoder().encode(value)
        } catch let error as PropertyListError {
            throw KeyedArchiveError(.unsupportedValue, "cannot encode \(T.self)", underlying: error)
        }
        return try archivedData(withRootObject: plain, format: format)
    }

    /// Archives a Codable value as the root object of the file at `path`, atomically.
    public static func archive<T: Encodable>(encoding value: T, toFile path: String, format: PropertyListFormat = .binary) throws {
        try ArchiveFiles.writeAtomically(archivedData(encoding: value, format: format), to: path)
    }
}

extension KeyedUnarchiver {
    /// Reads a Codable value from an archive's root object.
    public static func unarchive<T: Decodable>(decoding type: T.Type, from data: Data) throws -> T {
        let plain = try unarchive(PropertyListValue.self, from: data)
        do {
            return try PropertyListValueDecoder().decode(type, from: plain)
        } catch let error as PropertyListError {
            throw KeyedArchiveError(.typeMismatch, "the archive does not hold a \(T.self)", underlying: error)
        } catch let error as DecodingError {
            throw KeyedArchiveError(.typeMismatch, "the archive does not hold a \(T.self)", underlying: error)
        }
    }

    /// Reads a Codable value from the root object of the archive at `path`.
    public static func unarchive<T: Decodable>(decoding type: T.Type, fromFile path: String) throws -> T {
        let data = try contents(ofFile: path)
        do {
            return try unarchive(decoding: type, from: data)
        } catch var error as KeyedArchiveError {
            error.path = path
            throw error
        }
    }
}
