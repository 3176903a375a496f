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
