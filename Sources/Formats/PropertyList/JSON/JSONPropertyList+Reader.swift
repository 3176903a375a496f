import Foundation

/// Reads JSON (RFC 8259) as a property list, so JSON can be converted to
/// the other formats.
///
/// | JSON | property-list value |
/// |---|---|
/// | object | dictionary, keys in document order; for a repeated key the last value wins at the first key's place |
/// | `{"CF$UID": n}` (the only member, n a non-negative integer) | UID |
/// | array | array |
/// | string | string |
/// | number without fraction or exponent, from −2⁶³ to 2⁶⁴−1 | integer |
/// | any other number | real (nearest double; out-of-range magnitudes become ±infinity) |
/// | `true` / `false` | Boolean |
/// | `null` | error ``PropertyListError/Code/unsupportedValue``: property lists have no null |
///
/// The grammar is strict: no comments, trailing commas, single quotes,
/// leading `+` or zeros, or bare control characters in strings. A string
/// whose `\u` escapes leave a UTF-16 surrogate unpaired is an
/// ``PropertyListError/Code/invalidEncoding`` error. Input may be UTF-8
/// (with or without BOM) or UTF-16/UTF-32. Errors carry the line and
/// column where reading stopped.
public struct JSONPropertyListReader: Sendable {
    /// The limits enforced while reading: nesting depth, number of values
    /// (keys count as values) and input size.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Decodes a JSON document.
    public func read(_ data: Data) throws -> PropertyListValue {
        try JSONParser<DecodedText>.parse(data, limits: limits)
    }

    /// Checks that `data` is a document ``read(_:)`` decodes, without
    /// building its value: the same parser runs and makes no strings or
    /// containers, so this succeeds exactly when ``read(_:)`` does and
    /// fails with the same error at the same line and column.
    /// `sandbox plist -lint` uses it.
    public func validate(_ data: Data) throws {
        try JSONParser<ValidatedText>.validate(data, limits: limits)
    }
}
