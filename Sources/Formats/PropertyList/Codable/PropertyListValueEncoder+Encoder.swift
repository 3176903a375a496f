/// The `Encoder` handed to `encode(to:)`; it is its own single-value container.
final class ValueTreeEncoder: Encoder, SingleValueEncodingContainer {
    let state: EncodingState
    let node: EncodingNode
    let codingPath: [CodingKey]
    /// How many `encode(to:)` calls enclose this one.
    let nesting: Int

    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    init(state: EncodingState, node: EncodingNode, codingPath: [CodingKey], nesting: Int) {
        self.state = state
        self.node = node
        self.codingPath = codingPath
        self.nesting = nesting
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(encoder: self, node: containerNode(.dictionary), codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        UnkeyedValueEncodingContainer(encoder: self, node: containerNode(.array), codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { self }

    /// This encoder's node as a container of `kind`. Making a container
    /// cannot throw, so a misuse is recorded and the container writes into
    /// a node nobody reads; the recorded error is thrown by the next
    /// throwing call.
    private func containerNode(_ kind: EncodingNode.Content) -> EncodingNode {
        guard state.admitsContainer(at: codingPath) else { return EncodingNode(content: kind) }
        guard node.become(kind) else {
            state.fail("Cannot encode a \(kind.rawValue) where a \(node.content.rawValue) was already encoded.", codingPath: codingPath)
            return EncodingNode(content: kind)
        }
        return node
    }

    // MARK: Single-value container

    func encodeNil() throws { try setSingle(nil) }
    /// Also the witness of every `encode(_:)` for a native type (`Int`,
    /// `String`…): ``box(_:path:)`` finds those by one cast.
    func encode<T: Encodable>(_ value: T) throws { try setSingle(box(value, path: codingPath)) }

    private func setSingle(_ value: PropertyListValue?) throws {
        guard node.content == .empty else {
            let message = "Cannot encode a single value where a \(node.content.rawValue) was already encoded."
            throw EncodingError.invalidValue(value as Any, EncodingError.Context(codingPath: codingPath, debugDescription: message))
        }
        if let value {
            node.content = .single
            node.single = value
        } else {
            node.content = .null
        }
    }

    // MARK: Boxing

    /// Encodes the top-level value.
    func encodeRoot<T: Encodable>(_ value: T) throws -> PropertyListValue {
        if let primitive = value as? any PropertyListPrimitive {
            return try boxPrimitive(primitive, path: [])
        }
        try value.encode(to: self)
        try state.check()
        guard node.content != .empty else {
            let context = EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values.")
            throw EncodingError.invalidValue(value, context)
        }
        return node.finish() ?? .string(propertyListNullMarker)
    }

    /// `value` as a property-list value, or `nil` for a `nil` optional.
    ///
    /// - Parameter path: the value's coding path; built only when needed.
    func box<T: Encodable>(_ value: T, path: @autoclosure () -> [CodingKey]) throws -> PropertyListValue? {
        // Also unwraps a non-nil Optional whose wrapped type is native.
        if let primitive = value as? any PropertyListPrimitive {
            return try boxPrimitive(primitive, path: path())
        }
        try state.check()
        let childPath = path()
        guard nesting < state.nestingLimit else {
            let message = "\(T.self) nests encode(to:) calls deeper than \(state.nestingLimit) levels."
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: childPath, debugDescription: message))
        }
        let child = ValueTreeEncoder(state: state, node: EncodingNode(), codingPath: childPath, nesting: nesting + 1)
        try value.encode(to: child)
        try state.check()
        return child.node.finish()
    }

    /// A native value as a property-list value.
    func boxPrimitive<P: PropertyListPrimitive>(_ value: P, path: @autoclosure () -> [CodingKey]) throws -> PropertyListValue {
        do {
            return try value.boxed()
        } catch {
            let message = "\(value) is outside the range of property-list integers (−2⁶³ … 2⁶⁴−1)."
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path(), debugDescription: message))
        }
    }

    /// The node and coding path for a container nested at `key` in a
    /// container at `parentPath`; `attach` makes a node linked into the parent.
    ///
    /// Past the depth limit the node is detached, so that a loop nesting
    /// containers cannot build a deep tree; once encoding has failed the
    /// path stops growing too, so that such a loop stays linear.
    func nestedNode(
        _ content: EncodingNode.Content, in parentPath: [CodingKey], at key: CodingKey, attach: () -> EncodingNode
    ) -> (node: EncodingNode, codingPath: [CodingKey]) {
        guard state.failure == nil else { return (EncodingNode(content: content), parentPath) }
        let path = parentPath + [key]
        // An `.empty` node is a super encoder's, which may hold a scalar:
        // its container, if any, is checked when it is made.
        guard content == .empty || state.admitsContainer(at: path) else { return (EncodingNode(content: content), path) }
        return (attach(), path)
    }

    /// An encoder for a nested `super` value stored in `node`.
    func superEncoder(node: EncodingNode, codingPath: [CodingKey]) -> Encoder {
        guard nesting < state.nestingLimit else {
            state.fail("encode(to:) calls nest deeper than \(state.nestingLimit) levels.", codingPath: codingPath)
            return ValueTreeEncoder(state: state, node: EncodingNode(), codingPath: codingPath, nesting: nesting + 1)
        }
        return ValueTreeEncoder(state: state, node: node, codingPath: codingPath, nesting: nesting + 1)
    }
}
