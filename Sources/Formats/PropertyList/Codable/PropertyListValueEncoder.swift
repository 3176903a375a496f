import Foundation
import OrderedCollections

/// Encodes `Encodable` values as property lists: to a ``PropertyListValue``,
/// or straight to bytes in any ``PropertyListFormat``.
///
/// Types property lists hold natively are stored as themselves: `Date` as a
/// date, `Data` as data, `Float` as a single-precision real, `Double` as a
/// real, every integer type (up to `UInt64.max`) as an integer, and
/// ``PropertyListValue``, ``PropertyListUID`` and ``PropertyListInteger``
/// unchanged. A `URL` is stored as its absolute string, as Foundation's
/// `PropertyListEncoder` does.
///
/// Dictionaries keep the order in which `encode(to:)` encoded their keys, so
/// a synthesized conformance writes keys in declaration order.
///
/// Property lists have no null. A `nil` encoded for a key leaves the key out
/// (and decoding an optional reads a missing key as `nil`); a `nil` in an
/// array, or at the top level, is written as the string `"$null"`, as
/// Foundation's `PropertyListEncoder` does.
///
/// ```swift
/// let encoder = PropertyListValueEncoder()
/// let bytes = try encoder.encode(possession, as: .binary)
/// ```
public struct PropertyListValueEncoder: Sendable {
    /// Values for the `userInfo` of every `Encoder` this creates.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// The deepest nesting of arrays and dictionaries an encoded value may
    /// have; deeper values throw `EncodingError.invalidValue` instead of
    /// exhausting the stack.
    public var maximumDepth: Int

    /// Creates an encoder.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:], maximumDepth: Int = PropertyListLimits.default.maximumDepth) {
        self.userInfo = userInfo
        self.maximumDepth = maximumDepth
    }

    /// Encodes `value` as a property-list value.
    ///
    /// - Throws: `EncodingError.invalidValue` if the value encodes nothing,
    ///   nests deeper than ``maximumDepth``, holds an integer outside
    ///   −2⁶³ … 2⁶⁴−1, or uses its containers inconsistently.
    public func encode<T: Encodable>(_ value: T) throws -> PropertyListValue {
        let state = EncodingState(userInfo: userInfo.mapValues { $0 as Any }, maximumDepth: maximumDepth)
        let root = ValueTreeEncoder(state: state, node: EncodingNode(), codingPath: [], nesting: 0)
        return try root.encodeRoot(value)
    }

    /// Encodes `value` as a property list in `format`.
    ///
    /// - Throws: the errors of ``encode(_:)``, and `EncodingError.invalidValue`
    ///   whose `underlyingError` is a ``PropertyListError`` when the format
    ///   cannot hold the value.
    public func encode<T: Encodable>(_ value: T, as format: PropertyListFormat, options: PropertyListWriteOptions = .init()) throws -> Data {
        let tree = try encode(value)
        do {
            return try tree.encoded(as: format, options: options)
        } catch let error as PropertyListError {
            let context = EncodingError.Context(
                codingPath: [],
                debugDescription: "Unable to write the value as a \(format.displayName) property list.",
                underlyingError: error)
            throw EncodingError.invalidValue(value, context)
        }
    }
}

/// What every encoder and container of one top-level `encode` call shares.
final class EncodingState {
    let userInfo: [CodingUserInfoKey: Any]
    let maximumDepth: Int
    /// The first misuse found where the Codable API cannot throw (making
    /// containers); thrown as soon as control is back in a throwing method.
    var failure: EncodingError?

    init(userInfo: [CodingUserInfoKey: Any], maximumDepth: Int) {
        self.userInfo = userInfo
        self.maximumDepth = maximumDepth
    }

    /// How many `encode(to:)` calls may nest. Wrappers that encode through a
    /// single-value container nest calls without nesting containers, so this
    /// is larger than the depth limit, yet still bounds the stack.
    var nestingLimit: Int { max(maximumDepth, 0) * 2 + 16 }

    /// Records a failure; the first one wins because later ones follow from it.
    func fail(_ message: String, codingPath: [CodingKey]) {
        guard failure == nil else { return }
        failure = EncodingError.invalidValue(message, EncodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    /// Whether a container may be made at `codingPath`; records a failure if not.
    func admitsContainer(at codingPath: [CodingKey]) -> Bool {
        guard codingPath.count >= maximumDepth else { return true }
        fail("The value nests deeper than \(maximumDepth) levels of arrays and dictionaries.", codingPath: codingPath)
        return false
    }

    /// Throws the recorded failure, if any.
    func check() throws {
        if let failure { throw failure }
    }
}

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

/// What one encoder, and the containers it hands out, write into.
///
/// A class because an encoder and its containers (and the containers nested
/// in them) all fill it while `encode(to:)` runs. Finished values are stored
/// as plain ``PropertyListValue``s; only containers handed out by
/// `nestedContainer` or `superEncoder`, which may still be written after the
/// call that made them, stay pending until ``finish()``.
final class EncodingNode {
    enum Content: String {
        case empty, null, single = "value", array, dictionary
    }

    var content: Content
    var single: PropertyListValue = .bool(false)
    var elements: [PropertyListValue] = []
    var entries: OrderedDictionary<String, PropertyListValue> = [:]
    /// Elements that are nested containers, filled in by `finish`.
    var pendingElements: [(index: Int, node: EncodingNode)] = []
    /// Entries that are nested containers, filled in by `finish`.
    var pendingEntries: [(key: String, node: EncodingNode)] = []

    init(content: Content = .empty) {
        self.content = content
    }

    /// Makes this node a container of `kind`; `false` if it already holds something else.
    func become(_ kind: Content) -> Bool {
        if content == .empty { content = kind }
        return content == kind
    }

    /// Sets or, for `nil`, removes the entry for `key`. Overwriting keeps
    /// the key's first position, as `OrderedDictionary` does.
    func setEntry(_ value: PropertyListValue?, forKey key: String) {
        if !pendingEntries.isEmpty { pendingEntries.removeAll { $0.key == key } }
        if let value {
            entries[key] = value
        } else {
            entries.removeValue(forKey: key)
        }
    }

    /// Appends an element; `nil` becomes Foundation's `$null` marker, since
    /// leaving it out would shift the elements after it.
    func append(_ value: PropertyListValue?) {
        elements.append(value ?? .string(propertyListNullMarker))
    }

    /// A node for the entry `key`, finished with this one. A second request
    /// for the same key and kind gets the same node, so both writers add to
    /// one container.
    func nestedEntry(forKey key: String, content: Content) -> EncodingNode {
        if content != .empty, let existing = pendingEntries.last(where: { $0.key == key })?.node, existing.content == content {
            return existing
        }
        let node = EncodingNode(content: content)
        setEntry(.dictionary([:]), forKey: key) // reserves the key's position
        pendingEntries.append((key, node))
        return node
    }

    /// A node for the next element, finished with this one.
    func nestedElement(content: Content) -> EncodingNode {
        let node = EncodingNode(content: content)
        pendingElements.append((elements.count, node))
        elements.append(.dictionary([:])) // reserves the element's position
        return node
    }

    /// The finished value; `nil` for a `nil` that was encoded.
    ///
    /// Recursion here only follows pending nodes, which are never made
    /// deeper than the encoder's depth limit.
    func finish() -> PropertyListValue? {
        switch content {
        case .empty:
            // A value that encoded nothing is an empty dictionary, as in Foundation.
            return .dictionary([:])
        case .null:
            return nil
        case .single:
            return single
        case .array:
            guard !pendingElements.isEmpty else { return .array(elements) }
            var result = elements
            for (index, node) in pendingElements {
                result[index] = node.finish() ?? .string(propertyListNullMarker)
            }
            return .array(result)
        case .dictionary:
            guard !pendingEntries.isEmpty else { return .dictionary(entries) }
            var result = entries
            for (key, node) in pendingEntries {
                if let value = node.finish() {
                    result[key] = value
                } else {
                    result.removeValue(forKey: key)
                }
            }
            return .dictionary(result)
        }
    }
}
