import Foundation

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
