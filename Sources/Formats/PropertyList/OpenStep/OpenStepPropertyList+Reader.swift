import Foundation

/// Reads old-style ASCII property lists of NeXTSTEP and OpenStep, as Xcode
/// projects and `.strings` files use.
///
/// The grammar is CF's (`CFOldStylePList.c`):
/// - dictionaries `{ key = value; … }`, every entry ending in `;`; an entry
///   `key;` alone means the value is the key itself (the `.strings` shortcut);
/// - arrays `( a, b, )`, with an optional trailing comma;
/// - data `<0fbd 7777>`: hex digit pairs, whitespace between pairs allowed;
/// - strings quoted with `"…"` or `'…'`, or unquoted runs of
///   `A-Z a-z 0-9 _ $ / : . -`;
/// - comments `// …` and `/* … */` wherever whitespace may stand;
/// - escapes in quoted strings: `\a \b \f \n \r \t \v`, `\NNN` (one to
///   three octal digits), `\Uxxxx` (one to four hex digits; a UTF-16
///   surrogate pair written as two escapes makes one character); any other
///   escaped character, a newline included, stands for itself.
///
/// A top-level `key = value;` sequence without braces is a `.strings` file
/// and reads as a dictionary; input with nothing but whitespace and comments
/// reads as an empty dictionary. Dictionaries keep their keys in file
/// order; for a repeated key the last value wins at the first key's place.
/// Scalars are strings, except for the GNUstep extensions below.
///
/// Reading choices beyond CF:
/// - GNUstep's typed scalars are accepted: `<*I12>` integer, `<*R1.5>`
///   real, `<*BY>` / `<*BN>` Boolean, `<*D2011-09-12 20:15:23 +0000>` date
///   (fractional seconds allowed, as ``OpenStepPropertyListWriter`` writes
///   them), and `<[base64]>` data. A one-entry dictionary `{CF$UID = <*I5>;}`
///   reads as a UID, so typed output round-trips.
/// - Unquoted strings may also contain any non-ASCII character except the
///   line and paragraph separators U+2028 / U+2029 (which are whitespace),
///   as dd-plist and Xcode-era files use them; CF allows only the ASCII set.
/// - Octal escapes keep their low 8 bits, as CF does (`\777` is `\377`);
///   values of 128 and up are NeXTSTEP characters (`\341` is `Æ`). The two
///   bytes NeXTSTEP leaves undefined, `\376` and `\377`, are
///   ``PropertyListError/Code/invalidEncoding`` errors, as are escapes that
///   make an unpaired UTF-16 surrogate. `\U` needs at least one hex digit.
///   Lower-case `\u` is not an escape: like CF, `\u0041` reads as `u0041`.
/// - Input may be UTF-8 (with or without BOM) or UTF-16/UTF-32 (with or
///   without BOM); invalid UTF-8 inside a string is an error.
/// - A `/* …` comment that never ends is an error.
///
/// Errors carry the line and column where reading stopped.
public struct OpenStepPropertyListReader: Sendable {
    /// The limits enforced while reading: nesting depth, number of values
    /// (keys count as values) and input size.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Decodes an OpenStep property list or `.strings` file.
    public func read(_ data: Data) throws -> PropertyListValue {
        try OpenStepParser<DecodedText>.parse(data, limits: limits)
    }

    /// Checks that `data` is a property list ``read(_:)`` decodes, without
    /// building its value: the same parser runs and makes no strings, data
    /// or containers, so this succeeds exactly when ``read(_:)`` does and
    /// fails with the same error at the same line and column.
    /// `sandbox plist -lint` uses it.
    public func validate(_ data: Data) throws {
        try OpenStepParser<ValidatedText>.validate(data, limits: limits)
    }
}
