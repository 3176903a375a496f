/// Writes a dictionary: keys in the order they are first encoded.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueTreeEncoder
    let node: EncodingNode
    let codingPath: [CodingKey]

    /// Property lists have no null, so a `nil` leaves the key out.
    mutating func encodeNil(forKey key: Key) throws { node.setEntry(nil, forKey: key.stringValue) }

    /// Also the witness of every `encode(_:forKey:)` for a native type
    /// (`Int`, `String`…): ``ValueTreeEncoder/box(_:path:)`` finds those by
    /// one cast and stores them directly.
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.setEntry(try encoder.box(value, path: codingPath + [key]), forKey: key.stringValue)
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

    /// Also the witness of every `encode(_:)` for a native type.
    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try encoder.box(value, path: codingPath + [PropertyListCodingKey.index(count)]))
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
