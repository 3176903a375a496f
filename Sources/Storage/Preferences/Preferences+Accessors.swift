import Foundation
import KeyedArchive
import PropertyList

extension Preferences {
    /// The value for `key` as a Boolean, converted as Foundation converts
    /// (`1`, `2.5`, `"YES"`, `"true"` are `true`); `false` when missing or
    /// not convertible.
    public func bool(forKey key: String) -> Bool {
        object(forKey: key).flatMap(ValueCoercion.bool) ?? false
    }

    /// The value for `key` as an integer (reals truncated, Booleans 0 or 1,
    /// strings read as `NSString.integerValue`); 0 when missing.
    public func integer(forKey key: String) -> Int {
        object(forKey: key).flatMap(ValueCoercion.integer) ?? 0
    }

    /// The value for `key` as a double (integers and Booleans widened,
    /// strings read as `NSString.doubleValue`); 0 when missing.
    public func double(forKey key: String) -> Double {
        object(forKey: key).flatMap(ValueCoercion.double) ?? 0
    }

    /// The value for `key` as a float; 0 when missing.
    public func float(forKey key: String) -> Float {
        Float(double(forKey: key))
    }

    /// The string for `key`, or a number's text (`NSNumber.stringValue`);
    /// `nil` for other types.
    public func string(forKey key: String) -> String? {
        object(forKey: key).flatMap(ValueCoercion.string)
    }

    /// The data for `key`, if it is data.
    public func data(forKey key: String) -> Data? {
        object(forKey: key)?.dataValue
    }

    /// The date for `key`, if it is a date.
    public func date(forKey key: String) -> Date? {
        object(forKey: key)?.dateValue
    }

    /// The array for `key`, if it is an array.
    public func array(forKey key: String) -> [PropertyListValue]? {
        object(forKey: key)?.arrayValue
    }

    /// The array for `key`, if it is an array of strings only.
    public func stringArray(forKey key: String) -> [String]? {
        guard let elements = array(forKey: key) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let text = element.stringValue else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// The dictionary for `key`, if it is a dictionary.
    public func dictionary(forKey key: String) -> [String: PropertyListValue]? {
        guard let entries = object(forKey: key)?.dictionaryValue else { return nil }
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }

    /// The URL for `key`, read as Foundation's `url(forKey:)` reads it: a
    /// string is a file path (`~` is the home directory), data is an
    /// archived `NSURL` as ``set(_:forKey:)-(URL,_)`` stores a non-file URL.
    public func url(forKey key: String) -> URL? {
        switch object(forKey: key) {
        case .string(let path):
            return URL(fileURLWithPath: URLValue.expandingTilde(path, home: homeDirectory))
        case .data(let archive):
            return try? KeyedUnarchiver.unarchive(URL.self, from: archive)
        default:
            return nil
        }
    }
}
