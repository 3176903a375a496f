import OrderedCollections

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
