import Foundation

/// Writes old-style ASCII (OpenStep) property lists.
///
/// Layout: one entry or element per line, indented with one tab per level
/// (as Xcode writes `project.pbxproj`), `key = value;` in dictionaries,
/// `,` between array elements, `{}` and `()` for empty containers, and a
/// final newline. Dictionaries keep their key order.
///
/// Strings are written unquoted when they are non-empty, consist only of
/// `A-Z a-z 0-9 _ $ / : . -` and hold no `//` or `/*` (which would start a
/// comment); otherwise they are quoted with `"`, escaping `"` and `\` and
/// writing control characters as `\n \t \r \a \b \f \v` or `\U00XX`.
/// Non-ASCII characters are written as UTF-8, unescaped; the output has no
/// byte-order mark. Data is written as lower-case hex, `<0fbd7777>`.
///
/// OpenStep has only strings, so by default other scalars are written as
/// text and **read back as strings** — the conversion is lossy:
///
/// | value | written as |
/// |---|---|
/// | integer | decimal, `-5` |
/// | real | Swift's shortest round-trip form, `0.1`, `1e+300`, `"inf"` |
/// | Boolean | `YES` / `NO` |
/// | date | `"2001-01-01 00:00:00 +0000"` (fractional seconds only when not whole) |
/// | UID | `{ CF$UID = 5; }` |
///
/// With ``typedScalars`` set, they use GNUstep's typed forms instead —
/// `<*I-5>`, `<*R0.1>`, `<*BY>` / `<*BN>`, `<*D2001-01-01 00:00:00 +0000>`,
/// `{ CF$UID = <*I5>; }` — which ``OpenStepPropertyListReader`` reads back
/// to the same value (single-precision reals come back as double-precision
/// reals). GNUstep can read them too, except a date with fractional
/// seconds. CF cannot read either form.
public struct OpenStepPropertyListWriter: Sendable {
    /// The deepest nesting of arrays and dictionaries written.
    public var maximumDepth: Int
    /// The largest output written; see ``PropertyListLimits/maximumOutputSize``.
    public var maximumOutputSize: Int = PropertyListLimits.default.maximumOutputSize
    /// Whether integers, reals, Booleans, dates and UIDs are written in
    /// GNUstep's typed forms (lossless) rather than as plain strings.
    public var typedScalars: Bool

    /// Creates a writer, choosing whether scalars use GNUstep's typed forms
    /// (by default they are written as plain strings).
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth, typedScalars: Bool = false) {
        self.maximumDepth = maximumDepth
        self.typedScalars = typedScalars
    }

    /// Encodes `value` as OpenStep text in UTF-8.
    ///
    /// Throws ``PropertyListError/Code/depthLimitExceeded`` for nesting
    /// deeper than ``maximumDepth`` and ``PropertyListError/Code/unsupportedValue``
    /// for a date that is not finite or lies more than 2⁵³ seconds from 2001,
    /// with the key path of the offending value.
    public func write(_ value: PropertyListValue) throws -> Data {
        try OpenStepEmitter(typedScalars: typedScalars, maximumDepth: maximumDepth)
            .document(value, maximumOutputSize: maximumOutputSize, finalNewline: true)
    }
}
