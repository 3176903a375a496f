import Foundation
import PropertyList

/// The coder calls: what an archivable type's `init(from:)` reads from the
/// current object (or from `$top` at the top level).
extension KeyedUnarchiver {
    /// The coder keys of the current object, unescaped, without `$class`
    /// and un-keyed values.
    public var allKeys: [String] { fields.keys.compactMap(KeyedArchiveFormat.unescape) }

    /// Whether the current object has a value for `key`.
    public func containsValue(forKey key: String) -> Bool {
        fields[KeyedArchiveFormat.escape(key)] != nil
    }

    /// The value stored for `key` as it is in the archive (a UID for an
    /// object, a plain value for a primitive), or `nil`.
    public func decodePropertyList(forKey key: String) -> PropertyListValue? {
        fields[KeyedArchiveFormat.escape(key)]
    }

    /// Reads the object stored for `key`; a missing key or nil is an error.
    public func decode<T: KeyedArchiveRepresentable>(_ type: T.Type, forKey key: String) throws -> T {
        guard let value = try decodeIfPresent(type, forKey: key) else {
            throw KeyedArchiveError(.keyNotFound, objectIndex: currentIndex, key: key,
                                    containsValue(forKey: key) ? "the value is nil, expected \(T.self)" : "no value for the key")
        }
        return value
    }

    /// Reads the object stored for `key`, or `nil` if the key is missing or holds nil.
    public func decodeIfPresent<T: KeyedArchiveRepresentable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let stored = fields[KeyedArchiveFormat.escape(key)] else { return nil }
        guard case .uid(let reference) = stored else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key,
                                    "expected an object reference, found a \(stored.typeName) stored inline (use decodeInteger/decodeBool/decodeDouble)")
        }
        return try decodeReference(reference, as: type, key: key)
    }

    /// Reads the next un-keyed value (`$0`, `$1`, …), or `nil` if there is none or it is nil.
    public func decodeUnkeyed<T: KeyedArchiveRepresentable>(_ type: T.Type) throws -> T? {
        let key = KeyedArchiveFormat.unkeyedKey(unkeyedCount)
        unkeyedCount += 1
        guard let stored = fields[key] else { return nil }
        guard case .uid(let reference) = stored else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key,
                                    "expected an object reference, found a \(stored.typeName)")
        }
        return try decodeReference(reference, as: type, key: key)
    }

    /// Reads an integer (`decodeIntegerForKey:`). As in Foundation, a missing
    /// key reads as 0; a value that is not a number or does not fit is an error.
    public func decodeInteger(forKey key: String) throws -> Int {
        try decodeInt64(forKey: key, as: Int.self)
    }

    /// Reads a 64-bit integer (`decodeInt64ForKey:`); a missing key reads as 0.
    public func decodeInt64(forKey key: String) throws -> Int64 {
        try decodeInt64(forKey: key, as: Int64.self)
    }

    /// Reads a 32-bit integer (`decodeInt32ForKey:`); a missing key reads as 0.
    public func decodeInt32(forKey key: String) throws -> Int32 {
        try decodeInt64(forKey: key, as: Int32.self)
    }

    /// Reads a Boolean (`decodeBoolForKey:`); a missing key reads as false,
    /// a number reads as whether it is non-zero.
    public func decodeBool(forKey key: String) throws -> Bool {
        guard let value = try primitive(forKey: key) else { return false }
        switch value {
        case .bool(let flag): return flag
        case .integer(let integer): return integer.bitPattern != 0
        case .real, .float: return value.realValue != 0
        default: throw primitiveMismatch(value, "a Boolean", key)
        }
    }

    /// Reads a double (`decodeDoubleForKey:`); a missing key reads as 0, an integer is converted.
    public func decodeDouble(forKey key: String) throws -> Double {
        guard let value = try primitive(forKey: key) else { return 0 }
        switch value {
        case .real(let real): return real
        case .float(let real): return Double(real)
        case .integer(let integer):
            return integer.int64Value.map(Double.init) ?? Double(integer.bitPattern)
        case .bool(let flag): return flag ? 1 : 0
        default: throw primitiveMismatch(value, "a real", key)
        }
    }

    /// Reads a float (`decodeFloatForKey:`); a missing key reads as 0.
    public func decodeFloat(forKey key: String) throws -> Float {
        Float(try decodeDouble(forKey: key))
    }

    /// Reads raw bytes (`decodeBytesForKey:`), or `nil` if the key is missing.
    public func decodeBytes(forKey key: String) throws -> Data? {
        guard let value = try primitive(forKey: key) else { return nil }
        guard case .data(let bytes) = value else { throw primitiveMismatch(value, "data", key) }
        return bytes
    }

    private func decodeInt64<T: FixedWidthInteger>(forKey key: String, as type: T.Type) throws -> T {
        guard let value = try primitive(forKey: key) else { return 0 }
        switch value {
        case .integer(let integer):
            guard let result = integer.exactly(as: T.self) else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "\(integer) does not fit in \(T.self)")
            }
            return result
        case .bool(let flag):
            return flag ? 1 : 0
        case .real(let real):
            // Foundation truncates a real read as an integer.
            guard real.isFinite, let result = T(exactly: real.rounded(.towardZero)) else {
                throw KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "\(real) does not fit in \(T.self)")
            }
            return result
        default:
            throw primitiveMismatch(value, "an integer", key)
        }
    }

    /// The plain value for `key`; an NSNumber stored as an object is looked through.
    private func primitive(forKey key: String) throws -> PropertyListValue? {
        guard let stored = fields[KeyedArchiveFormat.escape(key)] else { return nil }
        guard case .uid(let reference) = stored else { return stored }
        if reference.value == 0 { return nil }
        let object = try storedObject(at: reference)
        if case .dictionary = object {
            return try decodeReference(reference, as: PropertyListValue.self, key: key)
        }
        return object
    }

    private func primitiveMismatch(_ value: PropertyListValue, _ expected: String, _ key: String) -> KeyedArchiveError {
        KeyedArchiveError(.typeMismatch, objectIndex: currentIndex, key: key, "expected \(expected), found a \(value.typeName)")
    }
}

extension KeyedUnarchiver {
    /// Reads `type` from an archive's `root` object.
    public static func unarchive<T: KeyedArchiveRepresentable>(_ type: T.Type, from data: Data,
                                                               allowedTypes: [any KeyedArchiveRepresentable.Type]? = nil) throws -> T {
        let unarchiver = try KeyedUnarchiver(data: data)
        if let allowedTypes { unarchiver.requireSecureDecoding(allowing: allowedTypes) }
        return try unarchiver.decodeRoot(type)
    }

    /// Reads `type` from the `root` object of the archive at `path`.
    public static func unarchive<T: KeyedArchiveRepresentable>(_ type: T.Type, fromFile path: String,
                                                               allowedTypes: [any KeyedArchiveRepresentable.Type]? = nil) throws -> T {
        let unarchiver = try KeyedUnarchiver(contentsOfFile: path)
        if let allowedTypes { unarchiver.requireSecureDecoding(allowing: allowedTypes) }
        do {
            return try unarchiver.decodeRoot(type)
        } catch var error as KeyedArchiveError {
            error.path = path
            throw error
        }
    }

    /// Reads the `root` entry of `$top` as `type`; a missing or nil root is
    /// a ``KeyedArchiveError/Code/missingRoot`` error.
    public func decodeRoot<T: KeyedArchiveRepresentable>(_ type: T.Type) throws -> T {
        try decodeTopLevel(type, forKey: KeyedArchiveFormat.rootKey)
    }

    /// Reads the entry `key` of `$top` as `type`.
    public func decodeTopLevel<T: KeyedArchiveRepresentable>(_ type: T.Type, forKey key: String) throws -> T {
        guard let stored = table.top[KeyedArchiveFormat.escape(key)] else {
            throw KeyedArchiveError(.missingRoot, key: key, "$top has no \(InputExcerpt.quoted(key)) entry")
        }
        guard case .uid(let reference) = stored else {
            throw KeyedArchiveError(.invalidReference, key: key, "$top[\(InputExcerpt.quoted(key))] is a \(stored.typeName), not a UID")
        }
        guard let value = try withTopLevel({ try decodeReference(reference, as: type, key: key) }) else {
            throw KeyedArchiveError(.missingRoot, key: key, "$top[\(InputExcerpt.quoted(key))] is nil")
        }
        return value
    }

    func withTopLevel<R>(_ body: () throws -> R) rethrows -> R {
        let outerFields = fields, outerIndex = currentIndex, outerDepth = depth
        fields = table.top
        currentIndex = nil
        depth = 0
        defer {
            fields = outerFields
            currentIndex = outerIndex
            depth = outerDepth
        }
        return try body()
    }
}
