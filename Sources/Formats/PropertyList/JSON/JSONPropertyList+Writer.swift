import Foundation

/// Writes property lists as JSON (RFC 8259), for people and tools.
///
/// Output is UTF-8 without a byte-order mark or final newline. Pretty
/// printing (the default) puts each member and element on its own line,
/// indented by two spaces per level, with `"key": value`; compact output has
/// no whitespace at all. Dictionaries keep their key order; `{}` and `[]`
/// stand for empty containers.
///
/// JSON has fewer types than property lists, so the mapping is:
///
/// | property-list value | JSON |
/// |---|---|
/// | string | string; `"` `\` and control characters escaped (`\n`, `\u001b`, …), other characters as UTF-8 |
/// | integer | number, exact over the whole range −2⁶³ … 2⁶⁴−1 |
/// | real | number in Swift's shortest round-trip form (`0.1`, `1.0`, `1e+300`); a single-precision real in its own shortest form |
/// | Boolean | `true` / `false` |
/// | date | string, ISO 8601 in UTC: `"2001-01-01T00:00:00Z"`, with a fraction only when the date is not a whole second (`"…00.5Z"`) |
/// | data | string, base64 |
/// | UID | `{"CF$UID": 5}` |
/// | array, dictionary | array, object |
///
/// Reals keep a `.0` when whole, so ``JSONPropertyListReader`` reads them
/// back as reals and integers as integers. Dates and data come back as
/// strings. NaN and infinite reals have no JSON form: writing one throws
/// ``PropertyListError/Code/unsupportedValue`` with its key path, as does
/// a date that is not finite.
public struct JSONPropertyListWriter: Sendable {
    /// The deepest nesting of arrays and dictionaries written.
    public var maximumDepth: Int
    /// Whether to indent with newlines and two spaces (`true`, the default)
    /// or write everything on one line without spaces.
    public var prettyPrinted: Bool
    /// The largest output written; see ``PropertyListLimits/maximumOutputSize``.
    public var maximumOutputSize: Int = PropertyListLimits.default.maximumOutputSize

    /// Creates a writer, choosing pretty (the default) or compact output.
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth, prettyPrinted: Bool = true) {
        self.maximumDepth = maximumDepth
        self.prettyPrinted = prettyPrinted
    }

    /// Encodes `value` as JSON.
    public func write(_ value: PropertyListValue) throws -> Data {
        try JSONEmitter(prettyPrinted: prettyPrinted, maximumDepth: maximumDepth).document(value, maximumOutputSize: maximumOutputSize)
    }
}
