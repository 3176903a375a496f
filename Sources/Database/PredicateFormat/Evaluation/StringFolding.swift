import Foundation

/// The `[c]` and `[d]` folding of strings, shared by in-memory evaluation and
/// the SQL functions so that both give the same answer.
///
/// - `[d]`: canonical decomposition (NFD), then every nonspacing mark
///   (general category Mn) removed: "café" → "cafe".
/// - `[c]`: canonical decomposition, then Unicode lowercase mapping:
///   "ÄPFEL" → "a\u{308}pfel", which equals the folding of "äpfel".
///
/// ASCII strings take a fast path with no Foundation call.
public enum StringFolding {
    /// The folded form of `string` under `options` (only `[c]` and `[d]` matter).
    public static func fold(_ string: String, _ options: ComparisonOptions) -> String {
        let folding = options.folding
        if folding.isEmpty { return string }
        if isASCII(string.utf8) {
            guard folding.contains(.caseInsensitive) else { return string }
            return asciiLowercased(string)
        }
        var decomposed = string.decomposedStringWithCanonicalMapping
        if folding.contains(.caseInsensitive) { decomposed = decomposed.lowercased() }
        guard folding.contains(.diacriticInsensitive) else { return decomposed }
        var result = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
            result.append(scalar)
        }
        return String(result)
    }

    static func isASCII<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        bytes.allSatisfy { $0 < 0x80 }
    }

    private static func asciiLowercased(_ string: String) -> String {
        var utf8 = Array(string.utf8)
        var changed = false
        for index in utf8.indices where utf8[index] >= 0x41 && utf8[index] <= 0x5A {
            utf8[index] |= 0x20
            changed = true
        }
        return changed ? String(decoding: utf8, as: UTF8.self) : string
    }
}

/// Byte-level substring tests on UTF-8 (valid UTF-8 makes a byte match a character match).
enum TextSearch {
    /// Whether `needle` occurs in `haystack` and ends on a character boundary
    /// (``GraphemeBoundary``); an empty needle never does, as with NSString.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, boundaries: Bool = true) -> Bool {
        let n = needle.count, h = haystack.count
        guard n > 0, n <= h, let first = needle.first else { return false }
        var start = 0
        let last = h - n
        while start <= last {
            if haystack[start] == first {
                var matched = 1
                while matched < n && haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == n && !(boundaries && GraphemeBoundary.isMark(at: start + n, in: haystack)) { return true }
            }
            start += 1
        }
        return false
    }

    static func hasPrefix(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, boundaries: Bool = true) -> Bool {
        let n = needle.count
        guard n > 0, n <= haystack.count else { return false }
        for index in 0..<n where haystack[index] != needle[index] { return false }
        return !(boundaries && GraphemeBoundary.isMark(at: n, in: haystack))
    }

    static func hasSuffix(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = needle.count, offset = haystack.count - needle.count
        guard n > 0, offset >= 0 else { return false }
        for index in 0..<n where haystack[offset + index] != needle[index] { return false }
        return true
    }

    /// `CONTAINS`, `BEGINSWITH` or `ENDSWITH` of two already-folded strings.
    ///
    /// With folding (`boundaries`), a match must end on a character boundary
    /// (``GraphemeBoundary``); without, the bytes are compared as they are,
    /// as SQLite's `instr` does for a comparison with no modifier.
    static func test(_ op: ComparisonOperator, _ haystack: String, _ needle: String, boundaries: Bool = true) -> Bool {
        var haystack = haystack, needle = needle
        return haystack.withUTF8 { h in needle.withUTF8 { n in test(op, h, n, boundaries: boundaries) } }
    }

    /// `CONTAINS`, `BEGINSWITH` or `ENDSWITH` of two already-folded UTF-8 strings.
    static func test(_ op: ComparisonOperator, _ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>,
                     boundaries: Bool = true) -> Bool {
        switch op {
        case .beginsWith: hasPrefix(haystack, needle, boundaries: boundaries)
        case .endsWith: hasSuffix(haystack, needle)
        default: contains(haystack, needle, boundaries: boundaries)
        }
    }
}
