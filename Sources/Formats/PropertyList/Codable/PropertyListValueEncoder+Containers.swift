/// Writes a dictionary: keys in the order they are first encoded.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueTreeEncoder
    let node: EncodingNode
    let codingPath: [CodingKey]

    /// Property lists have no null, so a `nil` leaves the key out.
    mutating func encodeNil(forKey key: Key) throws { node.setEntry(nil, forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) }
    @available(macOS 15.0, iOS 18.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, key) }
    @available(macOS 15.0, iOS 18.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try put(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.setEntry(try encoder.box(value, path: codingPath + [key]), forKey: key.stringValue)
    }

    private func put<P: PropertyListPrimitive>(_ value: P, _ key: Key) throws {
        node.setEntry(try encoder.boxPrimitive(value, path: codingPath + [key]), forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.nestedNode(.dictionary, in: codingPath, at: key) { [node] in
            node.nestedEntry(forKey: key.stringValue, content: .dictionary)
        }
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoder: encoder, node: nested.node, codingPath: nested.codingPath))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let nested = encoder.nestedNode(.array, in: codingPath, at: key) { [node] in
            node.nestedEntry(forKey: key.stringValue, content: .array)
        }
        return UnkeyedValueEncodingContainer(encoder: encoder, node: nested.node, codingPath: nested.codingPath)
    }

    mutating func superEncoder() -> Encoder { superEncoder(at: PropertyListCodingKey.super) }
    mutating func superEncoder(forKey key: Key) -> Encoder { superEncoder(at: key) }

    private func superEncoder(at key: CodingKey) -> Encoder {
        let nested = encoder.nestedNode(.empty, in: codingPath, at: key) { [node] in
            node.nestedEntry(forKey: key.stringValue, content: .empty)
        }
        return encoder.superEncoder(node: nested.node, codingPath: nested.codingPath)
    }
}

/// Writes an array.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueTreeEncoder
    let node: EncodingNode
    let codingPath: [CodingKey]

    var count: Int { node.elements.count }

    /// Written as `"$null"`: leaving it out would shift the later elements.
    mutating func encodeNil() throws { node.append(nil) }
    mutating func encode(_ value: Bool) throws { try put(value) }
    mutating func encode(_ value: String) throws { try put(value) }
    mutating func encode(_ value: Double) throws { try put(value) }
    mutating func encode(_ value: Float) throws { try put(value) }
    mutating func encode(_ value: Int) throws { try put(value) }
    mutating func encode(_ value: Int8) throws { try put(value) }
    mutating func encode(_ value: Int16) throws { try put(value) }
    mutating func encode(_ value: Int32) throws { try put(value) }
    mutating func encode(_ value: Int64) throws { try put(value) }
    @available(macOS 15.0, iOS 18.0, *)
    mutating func encode(_ value: Int128) throws { try put(value) }
    mutating func encode(_ value: UInt) throws { try put(value) }
    mutating func encode(_ value: UInt8) throws { try put(value) }
    mutating func encode(_ value: UInt16) throws { try put(value) }
    mutating func encode(_ value: UInt32) throws { try put(value) }
    mutating func encode(_ value: UInt64) throws { try put(value) }
    @available(macOS 15.0, iOS 18.0, *)
    mutating func encode(_ value: UInt128) throws { try put(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try encoder.box(value, path: codingPath + [PropertyListCodingKey.index(count)]))
    }

    private func put<P: PropertyListPrimitive>(_ value: P) throws {
        node.append(try encoder.boxPrimitive(value, path: codingPath + [PropertyListCodingKey.index(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.nestedNode(.dictionary, in: codingPath, at: PropertyListCodingKey.index(count)) { [node] in
            node.nestedElement(content: .dictionary)
        }
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoder: encoder, node: nested.node, codingPath: nested.codingPath))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let nested = encoder.nestedNode(.array, in: codingPath, at: PropertyListCodingKey.index(count)) { [node] in
            node.nestedElement(content: .array)
        }
        return UnkeyedValueEncodingContainer(encoder: encoder, node: nested.node, codingPath: nested.codingPath)
    }

    mutating func superEncoder() -> Encoder {
        let nested = encoder.nestedNode(.empty, in: codingPath, at: PropertyListCodingKey.index(count)) { [node] in
            node.nestedElement(content: .empty)
        }
        return encoder.superEncoder(node: nested.node, codingPath: nested.codingPath)
    }
}
