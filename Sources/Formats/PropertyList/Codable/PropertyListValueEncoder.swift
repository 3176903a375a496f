import Foundation

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
