import Foundation
import KeyedArchive
import PropertyList

extension Preferences {
    /// Sets a Boolean.
    public func set(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }

    /// Sets an integer.
    public func set(_ value: Int, forKey key: String) { set(.integer(PropertyListInteger(Int64(value))), forKey: key) }

    /// Sets a double.
    public func set(_ value: Double, forKey key: String) { set(.real(value), forKey: key) }

    /// Sets a float (stored as a real, as `NSNumber` stores it).
    public func set(_ value: Float, forKey key: String) { set(.real(Double(value)), forKey: key) }

    /// Sets a string.
    public func set(_ value: String, forKey key: String) { set(.string(value), forKey: key) }

    /// Sets data.
    public func set(_ value: Data, forKey key: String) { set(.data(value), forKey: key) }

    /// Sets a date.
    public func set(_ value: Date, forKey key: String) { set(.date(value), forKey: key) }

    /// Sets an array.
    public func set(_ value: [PropertyListValue], forKey key: String) { set(.array(value), forKey: key) }

    /// Sets an array of strings.
    public func set(_ value: [String], forKey key: String) { set(.array(value.map(PropertyListValue.string)), forKey: key) }

    /// Sets a dictionary.
    public func set(_ value: [String: PropertyListValue], forKey key: String) {
        set(.dictionary(.init(uniqueKeysWithValues: value.sorted { $0.key < $1.key })), forKey: key)
    }

    /// Sets a URL as Foundation's `set(_:forKey:)` does: a file URL as its
    /// path, abbreviated with `~` inside the home directory; any other URL
    /// as an archived `NSURL`.
    public func set(_ value: URL, forKey key: String) {
        if value.isFileURL {
            set(.string(URLValue.abbreviatingHome(value.standardizedFileURL.path, home: homeDirectory)), forKey: key)
        } else if let archive = try? KeyedArchiver.archivedData(withRootObject: value) {
            set(.data(archive), forKey: key)
        } else {
            set(.string(value.absoluteString), forKey: key)
        }
    }

    /// Stores any `Encodable` value as the property list it encodes to.
    ///
    /// - Throws: ``PreferencesError`` `.invalidValue` when it does not encode.
    public func set<Value: Encodable>(encoding value: Value, forKey key: String) throws {
        do {
            set(try PropertyListValueEncoder().encode(value), forKey: key)
        } catch {
            throw PreferencesError(.invalidValue, path: key, "cannot encode \(Value.self)").caused(by: error)
        }
    }

    /// Decodes the value for `key` as `type`; `nil` when the key is missing.
    ///
    /// - Throws: ``PreferencesError`` `.invalidValue` when the stored value
    ///   does not decode as `type` (for example after a schema change).
    public func decode<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value? {
        guard let stored = object(forKey: key) else { return nil }
        do {
            return try PropertyListValueDecoder().decode(type, from: stored)
        } catch {
            throw PreferencesError(.invalidValue, path: key, "cannot decode \(Value.self)").caused(by: error)
        }
    }
}
