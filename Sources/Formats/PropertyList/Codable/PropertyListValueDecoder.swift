import Foundation
import OrderedCollections

/// Decodes `Decodable` values from property lists: from a
/// ``PropertyListValue``, or from bytes in any ``PropertyListFormat``.
///
/// The mirror of ``PropertyListValueEncoder``. Conversions are lenient where
/// no information is lost, as Foundation's are: an integer type reads an
/// integer that fits or a real with an exact integer value; `Double` reads
/// an integer it represents exactly; `Float` reads any real in its range
/// (text formats hold every real as a double). Anything else is a
/// `DecodingError` whose coding path names the offending value:
///
/// - `typeMismatch` for a value of another type;
/// - `dataCorrupted` for a number that does not fit, a malformed URL, or
///   arrays and dictionaries nested deeper than ``maximumDepth``;
/// - `keyNotFound` for a missing key of a non-optional property;
/// - `valueNotFound` for `"$null"` where a value is required, or an array
///   that ends too soon.
///
/// A missing key, or Foundation's `"$null"` marker, decodes as `nil` for an
/// optional. Decoding never traps and never recurses without bound, whatever
/// the value holds.
///
/// ```swift
/// let possession = try PropertyListValueDecoder().decode(Possession.self, from: bytes)
/// ```
public struct PropertyListValueDecoder: Sendable {
    /// Values for the `userInfo` of every `Decoder` this creates.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// The deepest nesting of arrays and dictionaries decoded; deeper
    /// values throw `DecodingError.dataCorrupted`.
    public var maximumDepth: Int
    /// Whether a number, Boolean or date may be read from a string holding
    /// its text (`"42"`, `"YES"`, `"2001-01-01 00:00:00 +0000"`), as OpenStep
    /// files store every scalar as a string. Decoding bytes detected as
    /// OpenStep turns this on by itself.
    public var readsScalarsFromStrings: Bool

    /// Creates a decoder.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:], maximumDepth: Int = PropertyListLimits.default.maximumDepth,
                readsScalarsFromStrings: Bool = false) {
        self.userInfo = userInfo
        self.maximumDepth = maximumDepth
        self.readsScalarsFromStrings = readsScalarsFromStrings
    }

    /// Decodes a value of type `T` from a property-list value.
    public func decode<T: Decodable>(_ type: T.Type, from value: PropertyListValue) throws -> T {
        let state = DecodingState(userInfo: userInfo.mapValues { $0 as Any }, maximumDepth: maximumDepth,
                                  readsScalarsFromStrings: readsScalarsFromStrings)
        return try ValueTreeDecoder(value: value, codingPath: [], state: state, nesting: 0).decodeRoot(type)
    }

    /// Decodes a value of type `T` from a property list in any format,
    /// detected from its bytes.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose `underlyingError` is a
    ///   ``PropertyListError`` if the bytes are not a readable property list
    ///   within `limits`, and the errors of decoding from a ``PropertyListValue``.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, limits: PropertyListLimits = .default) throws -> T {
        let value: PropertyListValue
        let format: PropertyListFormat
        do {
            (value, format) = try PropertyListValue.decode(data, limits: limits)
        } catch let error as PropertyListError {
            let context = DecodingError.Context(
                codingPath: [], debugDescription: "The given data was not a valid property list.", underlyingError: error)
            throw DecodingError.dataCorrupted(context)
        }
        var decoder = self
        if format == .openStep { decoder.readsScalarsFromStrings = true }
        return try decoder.decode(type, from: value)
    }
}

/// What every decoder and container of one top-level `decode` call shares.
final class DecodingState {
    let userInfo: [CodingUserInfoKey: Any]
    let maximumDepth: Int
    let readsScalarsFromStrings: Bool

    init(userInfo: [CodingUserInfoKey: Any], maximumDepth: Int, readsScalarsFromStrings: Bool = false) {
        self.userInfo = userInfo
        self.maximumDepth = maximumDepth
        self.readsScalarsFromStrings = readsScalarsFromStrings
    }

    /// How many `init(from:)` calls may nest; see `EncodingState.nestingLimit`.
    var nestingLimit: Int { max(maximumDepth, 0) * 2 + 16 }
}

/// Reads a dictionary. Holds the dictionary's storage itself (a reference
/// count, not a copy), so each lookup is one hash probe.
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueTreeDecoder
    let entries: OrderedDictionary<String, PropertyListValue>

    var codingPath: [CodingKey] { decoder.codingPath }
    var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    /// A missing key is `nil` too: the encoder leaves out keys whose value is `nil`.
    func decodeNil(forKey key: Key) throws -> Bool { entries[key.stringValue]?.isNullMarker ?? true }

    /// Also the witness of every `decode(_:forKey:)` for a native type
    /// (`Int`, `String`…): ``ValueTreeDecoder/unbox(_:as:path:)`` finds
    /// those by one cast and reads them directly.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(try value(for: key), as: type, path: codingPath + [key])
    }

    // The standard library's `decodeIfPresent` looks a key up three times
    // (contains, decodeNil, decode); these look it up once.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try getIfPresent(type, key) }
    @available(macOS 15.0, iOS 18.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try getIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try getIfPresent(type, key) }
    @available(macOS 15.0, iOS 18.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try getIfPresent(type, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = entries[key.stringValue], !value.isNullMarker else { return nil }
        return try decoder.unbox(value, as: type, path: codingPath + [key])
    }

    private func getIfPresent<P: PropertyListPrimitive>(_ type: P.Type, _ key: Key) throws -> P? {
        guard let value = entries[key.stringValue], !value.isNullMarker else { return nil }
        return try decoder.unboxPrimitive(value, as: type, path: codingPath + [key])
    }

    private func value(for key: CodingKey) throws -> PropertyListValue {
        guard let value = entries[key.stringValue] else {
            let context = DecodingError.Context(codingPath: codingPath, debugDescription: "No value associated with key \"\(key.stringValue)\".")
            throw DecodingError.keyNotFound(key, context)
        }
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(try value(for: key), path: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try decoder.child(try value(for: key), path: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> Decoder { try superDecoder(at: PropertyListCodingKey.super) }
    func superDecoder(forKey key: Key) throws -> Decoder { try superDecoder(at: key) }

    private func superDecoder(at key: CodingKey) throws -> Decoder {
        try decoder.child(try value(for: key), path: codingPath + [key])
    }
}

/// Reads an array from front to back. A failed decode does not advance,
/// as in Foundation, so a caller may retry the element as another type.
struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
    let decoder: ValueTreeDecoder
    let elements: [PropertyListValue]
    private(set) var currentIndex = 0

    init(decoder: ValueTreeDecoder, elements: [PropertyListValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The path of the current element.
    private var currentPath: [CodingKey] { codingPath + [PropertyListCodingKey.index(currentIndex)] }

    mutating func decodeNil() throws -> Bool {
        guard try current(Optional<Any>.self).isNullMarker else { return false }
        currentIndex += 1
        return true
    }

    /// Also the witness of every `decode(_:)` for a native type.
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try decoder.unbox(try current(type), as: type, path: currentPath)
        currentIndex += 1
        return result
    }

    /// The current element, or `valueNotFound` past the end.
    private func current(_ type: Any.Type) throws -> PropertyListValue {
        guard currentIndex < elements.count else {
            let context = DecodingError.Context(codingPath: currentPath, debugDescription: "Unkeyed container is at end.")
            throw DecodingError.valueNotFound(type, context)
        }
        return elements[currentIndex]
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try current(KeyedDecodingContainer<NestedKey>.self)
        let container = try decoder.child(value, path: currentPath).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let value = try current(UnkeyedDecodingContainer.self)
        let container = try decoder.child(value, path: currentPath).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> Decoder {
        let value = try current(Decoder.self)
        let superDecoder = try decoder.child(value, path: currentPath)
        currentIndex += 1
        return superDecoder
    }
}

/// The `Decoder` handed to `init(from:)`; it is its own single-value container.
final class ValueTreeDecoder: Decoder, SingleValueDecodingContainer {
    let value: PropertyListValue
    let codingPath: [CodingKey]
    let state: DecodingState
    /// How many `init(from:)` calls enclose this one.
    let nesting: Int

    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    init(value: PropertyListValue, codingPath: [CodingKey], state: DecodingState, nesting: Int) {
        self.value = value
        self.codingPath = codingPath
        self.state = state
        self.nesting = nesting
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let entries) = value else {
            throw Self.mismatch(KeyedDecodingContainer<Key>.self, found: value, path: codingPath)
        }
        try checkDepth()
        return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(decoder: self, entries: entries))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw Self.mismatch(UnkeyedDecodingContainer.self, found: value, path: codingPath)
        }
        try checkDepth()
        return UnkeyedValueDecodingContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { self }

    /// Refuses a container deeper than the limit, so that a hostile value
    /// built in memory cannot drive a recursive `Decodable` type into a
    /// stack overflow. (Values read from bytes are already depth-limited.)
    private func checkDepth() throws {
        guard codingPath.count < state.maximumDepth else {
            let message = "The property list nests deeper than \(state.maximumDepth) levels of arrays and dictionaries."
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: message))
        }
    }

    // MARK: Single-value container

    func decodeNil() -> Bool { value.isNullMarker }
    /// Also the witness of every `decode(_:)` for a native type (`Int`,
    /// `String`…): ``unbox(_:as:path:)`` finds those by one cast.
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(value, as: type, path: codingPath) }

    // MARK: Unboxing

    /// Decodes the top-level value.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        if let primitive = T.self as? any PropertyListPrimitive.Type {
            return try unboxOpened(value, as: primitive, result: type, path: [])
        }
        return try T(from: self)
    }

    /// `value` decoded as `T`: directly for native types, else by `T.init(from:)`
    /// with a decoder one level down.
    ///
    /// - Parameter path: the value's coding path; built only when needed.
    func unbox<T: Decodable>(_ value: PropertyListValue, as type: T.Type, path: @autoclosure () -> [CodingKey]) throws -> T {
        if let primitive = T.self as? any PropertyListPrimitive.Type {
            return try unboxOpened(value, as: primitive, result: type, path: path())
        }
        return try T(from: child(value, path: path()))
    }

    /// A decoder for a value nested in this one's.
    func child(_ value: PropertyListValue, path: [CodingKey]) throws -> ValueTreeDecoder {
        guard nesting < state.nestingLimit else {
            let message = "init(from:) calls nest deeper than \(state.nestingLimit) levels."
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: message))
        }
        return ValueTreeDecoder(value: value, codingPath: path, state: state, nesting: nesting + 1)
    }

    /// A native value read from `value`.
    func unboxPrimitive<P: PropertyListPrimitive>(_ value: PropertyListValue, as type: P.Type, path: @autoclosure () -> [CodingKey]) throws -> P {
        do {
            return try P.unbox(value)
        } catch {
            if case .typeMismatch = error, state.readsScalarsFromStrings, P.self != String.self,
               case .string(let text) = value, let reread = OpenStepScalarText.value(of: text),
               let converted = try? P.unbox(reread) {
                return converted
            }
            throw Self.failure(error, type: type, value: value, path: path())
        }
    }

    /// ``unboxPrimitive(_:as:path:)`` for a type known only as `T` that was
    /// found to be native.
    private func unboxOpened<P: PropertyListPrimitive, T>(_ value: PropertyListValue, as primitive: P.Type, result: T.Type, path: [CodingKey]) throws -> T {
        // `P` is `T` here, so the cast always succeeds.
        guard let decoded = try unboxPrimitive(value, as: primitive, path: path) as? T else {
            throw Self.mismatch(T.self, found: value, path: path)
        }
        return decoded
    }

    // MARK: Errors

    /// The `DecodingError` for a primitive that could not be read.
    static func failure(_ failure: PrimitiveFailure, type: Any.Type, value: PropertyListValue, path: [CodingKey]) -> DecodingError {
        switch failure {
        case .typeMismatch:
            return mismatch(type, found: value, path: path)
        case .notRepresentable:
            let message = "Property list number \(numberText(value)) does not fit in \(type)."
            return .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: message))
        case .invalid(let message):
            return .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: message))
        }
    }

    /// The error for finding `value` where a `type` was expected: a
    /// `valueNotFound` for Foundation's null marker, else a `typeMismatch`.
    static func mismatch(_ type: Any.Type, found value: PropertyListValue, path: [CodingKey]) -> DecodingError {
        if value.isNullMarker {
            let context = DecodingError.Context(codingPath: path, debugDescription: "Expected \(type) value but found null instead.")
            return .valueNotFound(type, context)
        }
        let context = DecodingError.Context(codingPath: path, debugDescription: "Expected to decode \(type) but found \(value.typeName) instead.")
        return .typeMismatch(type, context)
    }

    private static func numberText(_ value: PropertyListValue) -> String {
        switch value {
        case .integer(let integer): integer.description
        case .real(let real): "\(real)"
        case .float(let float): "\(float)"
        default: value.typeName
        }
    }
}
